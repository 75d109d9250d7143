import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { AmountField } from "~/components/forms/amount-field";
import { FormErrors } from "~/components/forms/form-errors";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { dealFee, DEAL_MIN_AMOUNT } from "~/domain/deals/fees";
import { DESCRIPTION_MAX } from "~/domain/deals/schemas";
import type { DealFeePayer } from "~/domain/deals/types";
import { formatKopecks, isValidAmount, parseRoubles } from "~/domain/ledger/money";
import { FEE_TERMS } from "./fee-terms";
import { NewDealPageSchema } from "./schemas";

const selectClass =
  "h-10 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

/**
 * «Новая сделка»: counterparty, the creator's role, amount in roubles, description, deadline
 * date and who pays the fee. Posts to `action` with the loader's idempotency key, so a double
 * submit creates one deal. With JavaScript the fee and each side's share are previewed live.
 */
export function NewDealForm({
  action,
  idempotencyKey,
  today,
  defaultDeadline,
  lastResult,
}: {
  action: string;
  idempotencyKey: string;
  /** «YYYY-MM-DD», the earliest deadline. */
  today: string;
  defaultDeadline: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const submitting = useSubmitting({ action });
  const [form, fields] = useForm({
    id: "new-deal",
    lastResult,
    defaultValue: { role: "buyer", feePayer: "buyer", deadline: defaultDeadline },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewDealPageSchema }),
  });
  const amount = parseRoubles(String(fields.amount.value ?? ""));
  const payer = (fields.feePayer.value ?? "buyer") as DealFeePayer;
  const preview =
    amount !== null && isValidAmount(amount) && amount >= DEAL_MIN_AMOUNT && ["buyer", "seller", "split"].includes(payer) ? dealFee(amount, payer) : null;
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)} data-testid="new-deal-form">
      <AuthenticityTokenInput />
      <IdempotencyKeyInput value={idempotencyKey} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Вторая сторона" id={fields.counterparty.id} errors={fields.counterparty.errors} description="Имя пользователя на сайте">
          <Input {...getInputProps(fields.counterparty, { type: "text" })} placeholder="username" autoComplete="off" />
        </Field>
        <Field label="Моя роль" id={fields.role.id} errors={fields.role.errors}>
          <select {...getSelectProps(fields.role)} className={selectClass}>
            <option value="buyer">Покупатель</option>
            <option value="seller">Продавец</option>
          </select>
        </Field>
        <AmountField
          field={fields.amount}
          label="Сумма"
          placeholder="1 000"
          description={`От ${formatKopecks(DEAL_MIN_AMOUNT)}, например 1 500 или 1 234,50`}
        />
        <Field label="Срок передачи" id={fields.deadline.id} errors={fields.deadline.errors}>
          <Input {...getInputProps(fields.deadline, { type: "date" })} min={today} />
        </Field>
      </div>
      <Field
        label="Что продаётся"
        id={fields.description.id}
        errors={fields.description.errors}
        description={`Товар или услуга и условия, до ${DESCRIPTION_MAX} символов`}
      >
        <Textarea {...getTextareaProps(fields.description)} rows={4} placeholder="Например: аккаунт Steam с 120 играми, почта в комплекте" />
      </Field>
      <Field label="Комиссию платит" id={fields.feePayer.id} errors={fields.feePayer.errors} description={`Комиссия гаранта: ${FEE_TERMS}`}>
        <select {...getSelectProps(fields.feePayer)} className={selectClass}>
          <option value="buyer">Покупатель</option>
          <option value="seller">Продавец</option>
          <option value="split">Пополам</option>
        </select>
      </Field>
      {preview ? (
        <p className="rounded-md bg-muted p-3 text-sm" data-testid="fee-preview">
          Комиссия {formatKopecks(preview.fee)}: покупатель платит {formatKopecks(amount! + preview.buyerFee)}, продавец получит{" "}
          {formatKopecks(amount! - preview.sellerFee)}.
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={submitting}>
          {submitting ? "Создаём…" : "Создать сделку"}
        </Button>
      </div>
    </Form>
  );
}
