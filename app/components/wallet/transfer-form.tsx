/**
 * «Перевести участнику» (issue 5 item 2; docs/product/money.md#transfers-between-members): recipient, amount in roubles, an
 * optional hold in hours (LOLZTEAM-style: the money waits in the recipient's held balance and
 * the sender may release it early) and a memo. «Продолжить» shows the confirmation step
 * (TransferConfirm, docs/product/interface.md#money-confirmations); nothing moves before «Подтвердить».
 * With JavaScript the recipient field suggests members' names as one types.
 */
import { getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { AmountField } from "~/components/forms/amount-field";
import { roublesValue } from "./confirm-step";
import { MoneyForm } from "./money-form";
import { TransferSchema } from "./schemas";
import { formatKopecks, MAX_HOLD_HOURS } from "~/domain/ledger/money";
import type { TransferPreview } from "~/domain/ledger/wallet.server";
import type { TrustCardDto } from "~/domain/users/trust-card.server";
import { useEffect, useRef, useState } from "react";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button } from "~/components/ui/button";
import { TrustCard } from "~/components/users/trust-card-body";
import { plural } from "~/lib/format";

/** The form's typed values, as «Изменить» brings them back in the query string. */
export type TransferDefaults = Record<string, string> & {
  recipient?: string;
  amount?: string;
  holdHours?: string;
  memo?: string;
};

/** The values «Изменить» carried back (`?recipient=&amount=&holdHours=&memo=`); absent ones stay empty. */
export function transferDefaults(params: URLSearchParams): TransferDefaults {
  const out: Record<string, string> = {};
  for (const name of ["recipient", "amount", "holdHours", "memo"] as const) {
    const value = params.get(name);
    if (value) out[name] = value.slice(0, 600);
  }
  return out;
}

export function TransferForm({
  formKey,
  lastResult,
  defaultValue,
}: {
  formKey: string;
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: TransferDefaults;
}) {
  const [form, fields] = useForm({
    id: "transfer",
    lastResult,
    defaultValue,
    constraint: getZodConstraint(TransferSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TransferSchema }),
  });
  const suggestions = useRecipientSuggestions();
  return (
    <MoneyForm form={form} intent="transfer" formKey={formKey} submitLabel="Продолжить" testId="transfer-form">
      <Field label="Получатель" id={fields.recipient.id} errors={fields.recipient.errors} description="Имя пользователя, например demo">
        <Input
          {...getInputProps(fields.recipient, { type: "text" })}
          autoComplete="off"
          placeholder="username"
          className="max-w-72"
          list={suggestions.listId}
          onInput={(event) => suggestions.lookUp(event.currentTarget.value)}
        />
        <datalist id={suggestions.listId} data-testid="recipient-suggestions">
          {suggestions.names.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
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

/**
 * The recipient field's suggestions (with JavaScript): usernames from GET /api/profiles/search
 * as one types, 250 ms after the last key, at most 8. Without JavaScript the datalist stays
 * empty and the field is plain text; the confirmation step shows who the name resolved to.
 *
 * A plain fetch, not a fetcher: a fetcher's failed load (a limit's 429, a server error) goes to
 * the route's error boundary and replaced the whole wallet with the error page. A failed or
 * stale lookup here only leaves the list as it was; a newer lookup aborts the older one.
 */
function useRecipientSuggestions() {
  const [names, setNames] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const request = useRef<AbortController | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      request.current?.abort();
    },
    [],
  );
  const lookUp = (value: string) => {
    if (timer.current) clearTimeout(timer.current);
    const query = value.trim().replace(/^@/u, "");
    if (query.length < 2) return;
    timer.current = setTimeout(() => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      void suggestedNames(query, controller.signal).then((found) => {
        if (found && !controller.signal.aborted) setNames(found);
      });
    }, 250);
  };
  return { listId: "transfer-recipient-suggestions", names, lookUp };
}

/** Up to 8 usernames matching `query`, or null when the lookup failed or was aborted. */
async function suggestedNames(query: string, signal: AbortSignal): Promise<string[] | null> {
  try {
    const response = await fetch(`/api/profiles/search?${new URLSearchParams({ q: query, perPage: "8" }).toString()}`, {
      signal,
      headers: { Accept: "application/json" },
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { success: boolean; data?: { items: { username: string }[] } };
    return body.success ? (body.data?.items ?? []).map((item) => item.username) : null;
  } catch {
    return null;
  }
}

/** What the wallet action shows on the confirmation step: the preview with the recipient's trust card, and the form's idempotency key. */
export interface TransferConfirmData {
  transferPreview: TransferPreview & { card: TrustCardDto };
  key: string;
}

/**
 * The transfer's confirmation step (docs/product/interface.md#money-confirmations; a second page
 * without JavaScript): who the recipient resolved to, as their trust card, the amount, the fee,
 * the hold and the balance after. «Подтвердить» posts the same values with the same idempotency
 * key (a double click sends once); «Изменить» goes back to the form with the values kept.
 */
export function TransferConfirm({ preview, formKey }: { preview: TransferConfirmData["transferPreview"]; formKey: string }) {
  const submitting = useSubmitting({ intent: "transfer" });
  const amount = roublesValue(preview.amount);
  const back = new URLSearchParams({ recipient: preview.recipient.username, amount });
  if (preview.holdHours !== null) back.set("holdHours", String(preview.holdHours));
  if (preview.memo) back.set("memo", preview.memo);
  return (
    <div className="grid gap-4" data-testid="transfer-confirm">
      <p className="font-medium">Проверьте перевод</p>
      <div className="rounded-xl border border-border p-4" data-testid="transfer-recipient">
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Получатель</p>
        <TrustCard member={preview.card} card={preview.card} />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Сумма</dt>
        <dd className="font-semibold tabular-nums" data-testid="confirm-amount">
          {formatKopecks(preview.amount)}
        </dd>
        <dt className="text-muted-foreground">Комиссия</dt>
        <dd className="tabular-nums">{preview.fee > 0 ? formatKopecks(preview.fee) : "нет"}</dd>
        {preview.holdHours !== null ? (
          <>
            <dt className="text-muted-foreground">Удержание</dt>
            <dd>
              {preview.holdHours} {plural(preview.holdHours, ["час", "часа", "часов"])}
            </dd>
          </>
        ) : null}
        {preview.memo ? (
          <>
            <dt className="text-muted-foreground">Комментарий</dt>
            <dd className="whitespace-pre-wrap break-words">{preview.memo}</dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Останется на балансе</dt>
        <dd className="tabular-nums" data-testid="confirm-balance-after">
          {formatKopecks(preview.balanceAfter)}
        </dd>
      </dl>
      <div className="flex flex-wrap items-center gap-3">
        <Form method="post">
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="transfer" />
          <input type="hidden" name="confirmed" value="1" />
          <IdempotencyKeyInput value={formKey} />
          <input type="hidden" name="recipient" value={preview.recipient.username} />
          <input type="hidden" name="amount" value={amount} />
          {preview.holdHours !== null ? <input type="hidden" name="holdHours" value={preview.holdHours} /> : null}
          {preview.memo ? <input type="hidden" name="memo" value={preview.memo} /> : null}
          <Button type="submit" disabled={submitting}>
            {submitting ? "Выполняется…" : "Подтвердить"}
          </Button>
        </Form>
        <Button asChild variant="outline">
          <Link to={`?${back.toString()}`}>Изменить</Link>
        </Button>
      </div>
    </div>
  );
}
