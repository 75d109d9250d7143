/**
 * The admin's top-up (issue 5 item 2; docs/product/money.md#top-ups): credits a member's balance
 * through the development payment provider, which "captures" the money at once.
 */
import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { AmountField } from "~/components/forms/amount-field";
import { MoneyForm } from "./money-form";
import { TopUpSchema } from "./schemas";

export function TopUpForm({ formKey, lastResult }: { formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "topup",
    lastResult,
    constraint: getZodConstraint(TopUpSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TopUpSchema }),
  });
  return (
    <MoneyForm form={form} intent="topup" formKey={formKey} submitLabel="Пополнить" submitVariant="secondary" testId="topup-form">
      <Field label="Участник" id={fields.member.id} errors={fields.member.errors} description="Имя пользователя или email">
        <Input {...getInputProps(fields.member, { type: "text" })} autoComplete="off" className="max-w-72" />
      </Field>
      <AmountField field={fields.amount} label="Сумма пополнения" />
    </MoneyForm>
  );
}
