/**
 * The moderator's decision on /claims/{id}: uphold or reject, the reason (shown on /blacklist
 * when upheld) and optional compensation in roubles from the accused's deposit. The hidden
 * idempotency key comes from the loader, so a double submit or a resubmitted page replays the
 * decision instead of paying twice. Upholding with compensation is confirmed on a second step
 * (ClaimDecisionConfirm, docs/product/interface.md#money-confirmations). Works without JavaScript.
 */
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { AmountField } from "~/components/forms/amount-field";
import { FormErrors } from "~/components/forms/form-errors";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { formatKopecks } from "~/domain/ledger/money";
import { DecideClaimPageSchema } from "./schemas";

/** The decision form's values in the query (`decision`, `note`, `compensation` in roubles). */
export type DecisionDefaults = Partial<Record<"decision" | "note" | "compensation", string>>;

/** Reads DecisionDefaults from the claim page's query. */
export function decisionDefaults(params: URLSearchParams): DecisionDefaults {
  const out: DecisionDefaults = {};
  for (const name of ["decision", "note", "compensation"] as const) {
    const value = params.get(name);
    if (value) out[name] = value.slice(0, 2_100);
  }
  return out;
}

export function DecisionForm({
  claimId,
  idempotencyKey,
  amount,
  deposit,
  lastResult,
  defaultValue,
}: {
  claimId: number;
  idempotencyKey: string;
  /** The claimed amount, kopecks. */
  amount: number;
  /** The accused's deposit right now, kopecks. */
  deposit: number;
  lastResult?: SubmissionResult<string[]> | null;
  /** The values «Изменить» brings back from the confirmation step (decisionDefaults). */
  defaultValue?: DecisionDefaults;
}) {
  const action = `/claims/${claimId}`;
  const submitting = useSubmitting({ action });
  const [form, fields] = useForm({
    id: "claim-decision",
    lastResult,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DecideClaimPageSchema }),
  });
  return (
    <Form method="post" action={action} className="grid gap-5 rounded-2xl border border-border bg-card p-6" {...getFormProps(form)}>
      <h2 className="font-heading text-xl font-bold">Решение модератора</h2>
      <AuthenticityTokenInput />
      <IdempotencyKeyInput value={idempotencyKey} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset className="grid gap-2" aria-describedby={fields.decision.errors ? `${fields.decision.id}-error` : undefined}>
        <legend className="mb-1 text-sm font-medium">Решение</legend>
        <label className="flex items-center gap-2">
          <input {...getInputProps(fields.decision, { type: "radio", value: "uphold" })} id={`${fields.decision.id}-uphold`} className="size-4" />
          Удовлетворить — участник получит ранг «Мошенник» и попадёт в чёрный список
        </label>
        <label className="flex items-center gap-2">
          <input {...getInputProps(fields.decision, { type: "radio", value: "reject" })} id={`${fields.decision.id}-reject`} className="size-4" />
          Отклонить
        </label>
        {fields.decision.errors ? (
          <p id={`${fields.decision.id}-error`} className="text-sm text-destructive">
            {fields.decision.errors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <Field label="Причина решения" id={fields.note.id} errors={fields.note.errors} description="При удовлетворении показывается в чёрном списке.">
        <Textarea {...getTextareaProps(fields.note)} rows={4} />
      </Field>
      <AmountField
        field={fields.compensation}
        label="Компенсация из депозита"
        placeholder="0,00"
        description={`Необязательно, только при удовлетворении. Не больше суммы претензии (${formatKopecks(amount)}) и депозита участника (сейчас ${formatKopecks(deposit)}).`}
      />
      <div>
        <Button type="submit" disabled={submitting}>
          {submitting ? "Сохраняем…" : "Вынести решение"}
        </Button>
      </div>
    </Form>
  );
}
