/**
 * The forms of /profile/deposit (issue 5 item 3; docs/product/money.md#deposits): lock part of the
 * available balance as the public deposit, ask to withdraw it (14 days, pending meanwhile), and
 * the pending withdrawal with its date, «Отменить», and a notice while a claim blocks it.
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { AlertTriangle, Hourglass } from "lucide-react";
import { z } from "zod";
import type { PendingWithdrawal } from "~/domain/ledger/deposits.server";
import { formatKopecks } from "~/domain/ledger/money";
import { formatDateTime } from "~/lib/format";
import { AmountField } from "~/components/forms/amount-field";
import { MoneyForm } from "./money-form";
import { CancelWithdrawalSchema, RoublesSchema } from "./schemas";

type AmountIntent = "deposit" | "withdraw";
/** What the browser checks before posting either form (the action checks intent and key too). */
const AmountSchema = z.object({ amount: RoublesSchema });

/** A form with one amount: «Внести в депозит» or «Вывести из депозита». */
export function DepositAmountForm({
  intent,
  formKey,
  lastResult,
  label,
  submitLabel,
  description,
  disabledBecause,
}: {
  intent: AmountIntent;
  formKey: string;
  lastResult?: SubmissionResult<string[]>;
  label: string;
  submitLabel: string;
  description?: string;
  /** The id of the notice that says why the form cannot be used now (e.g. an open claim): disables it. */
  disabledBecause?: string;
}) {
  const [form, fields] = useForm({
    id: intent,
    lastResult,
    constraint: getZodConstraint(AmountSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AmountSchema }),
  });
  return (
    <MoneyForm
      form={form}
      intent={intent}
      formKey={formKey}
      submitLabel={submitLabel}
      testId={`${intent}-form`}
      submitVariant={intent === "withdraw" ? "outline" : "default"}
      disabled={disabledBecause !== undefined}
    >
      <fieldset disabled={disabledBecause !== undefined} aria-describedby={disabledBecause} className="grid gap-4 disabled:opacity-60">
        <AmountField field={fields.amount} label={label} description={description} />
      </fieldset>
    </MoneyForm>
  );
}

/** The pending withdrawal: amount, «доступно с …», «Отменить», and why it waits when a claim is open. */
export function PendingWithdrawalCard({
  pending,
  formKey,
  lastResult,
}: {
  pending: PendingWithdrawal;
  formKey: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form] = useForm({
    id: "cancel",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CancelWithdrawalSchema }),
  });
  return (
    <div className="grid gap-3 rounded-xl border border-amber-500/40 bg-amber-500/5 p-4" data-testid="pending-withdrawal">
      <p className="flex items-center gap-2 font-semibold">
        <Hourglass aria-hidden className="size-4 text-amber-600" />
        Заявка на вывод {formatKopecks(pending.amount)}
      </p>
      <p className="text-sm text-muted-foreground">
        Подана {formatDateTime(pending.requestedAt)}. Доступно с {formatDateTime(pending.availableAt)} — тогда сумма вернётся на баланс. До этого деньги
        остаются в депозите.
      </p>
      {pending.blockedByClaim ? (
        <p
          role="alert"
          className="flex gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive"
          data-testid="withdrawal-blocked"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
          Против вас открыта претензия: вывод приостановлен до решения модератора.
        </p>
      ) : null}
      <MoneyForm form={form} intent="cancel" formKey={formKey} submitLabel="Отменить" submitVariant="outline">
        <input type="hidden" name="withdrawalId" value={pending.id} />
      </MoneyForm>
    </div>
  );
}
