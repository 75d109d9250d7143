/**
 * «Перевести участнику» (issue 5 item 2; docs/product/money.md#transfers-between-members): recipient, amount in roubles, an
 * optional hold in hours (LOLZTEAM-style: the money waits in the recipient's held balance and
 * the sender may release it early) and a memo.
 */
import { getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { AmountField } from "~/components/forms/amount-field";
import { MoneyForm } from "./money-form";
import { TransferSchema } from "./schemas";
import { MAX_HOLD_HOURS } from "~/domain/ledger/money";

export function TransferForm({ formKey, lastResult }: { formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "transfer",
    lastResult,
    constraint: getZodConstraint(TransferSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TransferSchema }),
  });
  return (
    <MoneyForm form={form} intent="transfer" formKey={formKey} submitLabel="Перевести" testId="transfer-form">
      <Field label="Получатель" id={fields.recipient.id} errors={fields.recipient.errors} description="Имя пользователя, например demo">
        <Input {...getInputProps(fields.recipient, { type: "text" })} autoComplete="off" placeholder="username" className="max-w-72" />
      </Field>
      <AmountField field={fields.amount} label="Сумма" />
      <Field
        label="Удержание, часов"
        id={fields.holdHours.id}
        errors={fields.holdHours.errors}
        description={`Необязательно: до ${MAX_HOLD_HOURS} часов деньги ждут на удержании у получателя; снять удержание раньше можете вы`}
      >
        <Input
          {...getInputProps(fields.holdHours, { type: "number" })}
          min={1}
          max={MAX_HOLD_HOURS}
          step={1}
          placeholder="без удержания"
          className="max-w-48"
        />
      </Field>
      <Field label="Комментарий" id={fields.memo.id} errors={fields.memo.errors}>
        <Textarea {...getTextareaProps(fields.memo)} rows={2} placeholder="За что перевод (видят оба)" />
      </Field>
    </MoneyForm>
  );
}
