/**
 * The forms of /profile/deposit (issue 5 item 3; docs/product/money.md#deposits): lock part of the
 * available balance as the public deposit, ask to withdraw it (14 days, pending meanwhile), and
 * the pending withdrawal with its date, «Отменить», and a notice while a claim blocks it. Locking
 * withdrawing and cancelling a withdrawal are confirmed on a second step (DepositConfirm,
 * WithdrawalConfirm, WithdrawalCancelConfirm;
 * docs/product/interface.md#money-confirmations).
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { AlertTriangle, Hourglass } from "lucide-react";
import { z } from "zod";
import type { DepositPreview, WithdrawalCancelPreview, WithdrawalPreview } from "~/domain/ledger/deposit-preview.server";
import { DEPOSIT_WITHDRAWAL_DAYS } from "~/domain/ledger/deposits";
import type { PendingWithdrawal } from "~/domain/ledger/deposits.server";
import { formatKopecks } from "~/domain/ledger/money";
import { formatDateTime } from "~/lib/format";
import { AmountField } from "~/components/forms/amount-field";
import { ConfirmStep, roublesValue } from "./confirm-step";
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
  defaultAmount,
}: {
  intent: AmountIntent;
  formKey: string;
  lastResult?: SubmissionResult<string[]>;
  label: string;
  submitLabel: string;
  description?: string;
  /** The id of the notice that says why the form cannot be used now (e.g. an open claim): disables it. */
  disabledBecause?: string;
  /** The amount «Изменить» brought back from the confirmation step. */
  defaultAmount?: string;
}) {
  const [form, fields] = useForm({
    id: intent,
    lastResult,
    defaultValue: defaultAmount ? { amount: defaultAmount } : undefined,
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

/** What the deposit action shows on a confirmation step, with the form's idempotency key. */
export type DepositConfirmData =
  | { depositPreview: DepositPreview; key: string }
  | { withdrawalPreview: WithdrawalPreview; key: string }
  | { cancelPreview: WithdrawalCancelPreview; key: string };

/** The amount «Изменить» brings back to `intent`'s form (`?deposit=120,50`, `?withdraw=100`). */
export function depositDefault(params: URLSearchParams, intent: AmountIntent): string | undefined {
  return params.get(intent)?.slice(0, 40) || undefined;
}

/** «Внести в депозит», second step: the amount, no fee, the balance and the deposit after. */
export function DepositConfirm({ preview, formKey }: { preview: DepositPreview; formKey: string }) {
  const amount = roublesValue(preview.amount);
  return (
    <ConfirmStep
      title="Проверьте взнос в депозит"
      testId="deposit-confirm"
      rows={[
        { label: "Сумма", value: formatKopecks(preview.amount), testId: "confirm-amount" },
        { label: "Комиссия", value: preview.fee > 0 ? formatKopecks(preview.fee) : "нет" },
        { label: "Останется на балансе", value: formatKopecks(preview.availableAfter), testId: "confirm-balance-after" },
        { label: "Депозит станет", value: formatKopecks(preview.depositAfter), testId: "confirm-deposit-after" },
      ]}
      note="Депозит виден всем; из него может быть выплачена компенсация по признанной претензии."
      intent="deposit"
      formKey={formKey}
      fields={{ amount }}
      backTo={`?${new URLSearchParams({ deposit: amount }).toString()}`}
    />
  );
}

/** «Подать заявку на вывод», second step: the amount, no fee, when it comes back, the balances then. */
export function WithdrawalConfirm({ preview, formKey }: { preview: WithdrawalPreview; formKey: string }) {
  const amount = roublesValue(preview.amount);
  return (
    <ConfirmStep
      title="Проверьте заявку на вывод"
      testId="withdraw-confirm"
      rows={[
        { label: "Сумма", value: formatKopecks(preview.amount), testId: "confirm-amount" },
        { label: "Комиссия", value: preview.fee > 0 ? formatKopecks(preview.fee) : "нет" },
        { label: "Вернётся на баланс", value: formatDateTime(preview.availableAt), testId: "confirm-available-at" },
        { label: "Баланс станет", value: formatKopecks(preview.availableAfter), testId: "confirm-balance-after" },
        { label: "Депозит станет", value: formatKopecks(preview.depositAfter), testId: "confirm-deposit-after" },
      ]}
      note="До этой даты деньги остаются в депозите, а заявку можно отменить."
      intent="withdraw"
      formKey={formKey}
      fields={{ amount }}
      backTo={`?${new URLSearchParams({ withdraw: amount }).toString()}`}
    />
  );
}

/** «Отменить» a pending withdrawal, second step: the amount stays in the deposit, nothing comes back to the balance. */
export function WithdrawalCancelConfirm({ preview, formKey }: { preview: WithdrawalCancelPreview; formKey: string }) {
  return (
    <ConfirmStep
      title="Отменить заявку на вывод?"
      testId="cancel-confirm"
      rows={[
        { label: "Сумма заявки", value: formatKopecks(preview.amount), testId: "confirm-amount" },
        { label: "Комиссия", value: preview.fee > 0 ? formatKopecks(preview.fee) : "нет" },
        { label: "Останется в депозите", value: formatKopecks(preview.deposit), testId: "confirm-deposit-after" },
        { label: "Баланс", value: formatKopecks(preview.available), testId: "confirm-balance-after" },
      ]}
      note={`Сумма останется в депозите и не вернётся на баланс ${formatDateTime(preview.availableAt)}. Вывести её снова можно новой заявкой — ещё через ${DEPOSIT_WITHDRAWAL_DAYS} дней.`}
      intent="cancel"
      formKey={formKey}
      fields={{ withdrawalId: String(preview.withdrawalId) }}
      backTo="/profile/deposit"
    />
  );
}
