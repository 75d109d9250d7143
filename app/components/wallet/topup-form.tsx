/**
 * The admin's top-up (issue 5 item 2; docs/product/money.md#top-ups): credits a member's balance
 * through the development payment provider, which "captures" the money at once. Confirmed on a
 * second step (docs/product/interface.md#money-confirmations): the member's trust card, the amount,
 * their balance after; «Изменить» comes back with the member and the amount in the query.
 */
import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { AmountField } from "~/components/forms/amount-field";
import type { TopUpPreview } from "~/domain/ledger/topup-preview.server";
import { formatKopecks } from "~/domain/ledger/money";
import type { TrustCardDto } from "~/domain/users/trust-card.server";
import { ConfirmStep, roublesValue } from "./confirm-step";
import { MoneyForm } from "./money-form";
import { TopUpSchema } from "./schemas";

/** What the top-up's confirmation step shows, with the form's idempotency key. */
export interface TopUpConfirmData {
  topUpPreview: TopUpPreview & { card: TrustCardDto };
  key: string;
}

/** The form's values kept in the query by «Изменить» (`topupMember`, `topupAmount`). */
export function topUpDefaults(params: URLSearchParams): { member?: string; amount?: string } {
  const member = params.get("topupMember")?.slice(0, 100);
  const amount = params.get("topupAmount")?.slice(0, 30);
  return { ...(member ? { member } : {}), ...(amount ? { amount } : {}) };
}

export function TopUpForm({
  formKey,
  lastResult,
  defaultValue,
}: {
  formKey: string;
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: { member?: string; amount?: string };
}) {
  const [form, fields] = useForm({
    id: "topup",
    lastResult,
    defaultValue,
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

export function TopUpConfirm({ preview, formKey }: { preview: TopUpConfirmData["topUpPreview"]; formKey: string }) {
  const amount = roublesValue(preview.amount);
  const back = new URLSearchParams({ topupMember: preview.member.username, topupAmount: amount });
  return (
    <ConfirmStep
      title="Проверьте, кому зачислить деньги"
      testId="topup-confirm"
      party={{ label: "Участник", card: preview.card }}
      rows={[
        { label: "Сумма", value: formatKopecks(preview.amount), testId: "confirm-amount" },
        { label: "Комиссия", value: preview.fee > 0 ? formatKopecks(preview.fee) : "нет" },
        { label: "Баланс участника после", value: formatKopecks(preview.balanceAfter), testId: "confirm-balance-after" },
      ]}
      note="Тестовый платёжный провайдер зачислит сумму сразу."
      intent="topup"
      formKey={formKey}
      fields={{ member: preview.member.username, amount }}
      backTo={`/profile/wallet?${back.toString()}`}
    />
  );
}
