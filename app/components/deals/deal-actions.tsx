import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { z } from "zod";
import { messagesOf, type FormActionData } from "~/components/forms/action-data";
import { AmountField } from "~/components/forms/amount-field";
import { FormErrors } from "~/components/forms/form-errors";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { DEAL_ACTION_LABELS, DEAL_RESOLUTION_LABELS, DEAL_RESOLUTIONS, type DealAction, type DealDetailDto } from "~/domain/deals/types";
import { formatKopecks } from "~/domain/ledger/money";
import { DealActionPageSchema } from "./schemas";

/** The buttons that need no more input, in the order they are shown. */
const BUTTONS: DealAction[] = ["accept", "fund", "deliver", "confirm", "agree_cancel", "request_cancel", "cancel"];
const DANGER: DealAction[] = ["cancel", "request_cancel"];

interface ActionFormProps {
  action: string;
  deal: DealDetailDto;
  idempotencyKey: string;
  /** The last refused submission and its intent, shown on the form that sent it. */
  last?: FormActionData | null;
  /** The resolution form's values brought back by the confirmation step's «Изменить». */
  resolveDefaults?: ResolveDefaults;
}

/** The resolution form's values in the query (`resolution`, `sellerShare` in roubles, `note`). */
export type ResolveDefaults = Partial<Record<"resolution" | "sellerShare" | "note", string>>;

/** Reads ResolveDefaults from the deal page's query. */
export function resolveDefaults(params: URLSearchParams): ResolveDefaults {
  const out: ResolveDefaults = {};
  for (const name of ["resolution", "sellerShare", "note"] as const) {
    const value = params.get(name);
    if (value) out[name] = value.slice(0, 2_100);
  }
  return out;
}

function Hidden({ idempotencyKey }: { idempotencyKey: string }) {
  return (
    <>
      <AuthenticityTokenInput />
      <IdempotencyKeyInput value={idempotencyKey} />
    </>
  );
}

/**
 * Everything the viewer may do to the deal now (deal.viewer.actions) under «Действия»: one form
 * of buttons (accept, fund, deliver, confirm, cancel…), the dispute form and the moderator's
 * resolution form. Every form posts to the deal page's action and works without JavaScript.
 * A refusal of a button (e.g. «the deal has changed» after the other party moved it) is shown
 * even when the deal's new state leaves the viewer nothing to press.
 */
export function DealActions({ action, deal, idempotencyKey, last, resolveDefaults: defaults }: ActionFormProps) {
  const busy = useSubmitting({ action });
  const allowed = deal.viewer.actions;
  const buttons = BUTTONS.filter((a) => allowed.includes(a));
  // The dispute and resolution forms show their own refusals; any other (or theirs, once the deal
  // moved on and the form is gone) shows above the buttons.
  const ownForm = (last?.intent === "dispute" || last?.intent === "resolve") && allowed.includes(last.intent);
  const buttonErrors = last && !ownForm ? messagesOf(last.result) : [];
  if (allowed.length === 0 && buttonErrors.length === 0) return null;
  return (
    <section className="grid gap-4" aria-labelledby="deal-actions-title" data-testid="deal-actions">
      <h2 id="deal-actions-title" className="font-heading text-xl font-bold">
        Действия
      </h2>
      {buttons.length > 0 ? (
        <Form method="post" action={action} className="grid gap-3">
          <Hidden idempotencyKey={idempotencyKey} />
          <FormErrors errors={buttonErrors} />
          <div className="flex flex-wrap gap-3">
            {buttons.map((a) => (
              <Button key={a} type="submit" name="intent" value={a} variant={DANGER.includes(a) ? "outline" : "default"} disabled={busy}>
                {a === "fund" ? `Оплатить ${formatKopecks(deal.amount + deal.buyerFee)}` : DEAL_ACTION_LABELS[a]}
              </Button>
            ))}
          </div>
        </Form>
      ) : (
        <FormErrors errors={buttonErrors} />
      )}
      {allowed.includes("dispute") ? (
        <DisputeForm action={action} deal={deal} idempotencyKey={idempotencyKey} last={last?.intent === "dispute" ? last : null} />
      ) : null}
      {allowed.includes("resolve") ? (
        <ResolveForm action={action} deal={deal} idempotencyKey={idempotencyKey} last={last?.intent === "resolve" ? last : null} resolveDefaults={defaults} />
      ) : null}
    </section>
  );
}

type DealActionFields = z.input<typeof DealActionPageSchema>;

function useDealForm(id: string, lastResult: SubmissionResult<string[]> | undefined, defaultValue?: Partial<DealActionFields>) {
  return useForm<DealActionFields, z.output<typeof DealActionPageSchema>>({
    id,
    lastResult,
    defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DealActionPageSchema }),
  });
}

function DisputeForm({ action, idempotencyKey, last }: ActionFormProps) {
  const busy = useSubmitting({ action });
  const [form, fields] = useDealForm("deal-dispute", last?.result);
  return (
    <Form method="post" action={action} className="grid gap-3 rounded-xl border border-destructive/40 p-4" {...getFormProps(form)}>
      <Hidden idempotencyKey={idempotencyKey} />
      <input type="hidden" name="intent" value="dispute" />
      <h3 className="font-semibold">Открыть спор</h3>
      <p className="text-sm text-muted-foreground">Деньги останутся у гаранта, пока модератор не примет решение.</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field label="Причина спора" id={fields.reason.id} errors={fields.reason.errors}>
        <Textarea {...getTextareaProps(fields.reason)} rows={3} placeholder="Что пошло не так?" />
      </Field>
      <div>
        <Button type="submit" variant="destructive" disabled={busy}>
          {busy ? "Выполняется…" : "Открыть спор"}
        </Button>
      </div>
    </Form>
  );
}

function ResolveForm({ action, deal, idempotencyKey, last, resolveDefaults: defaults }: ActionFormProps) {
  const busy = useSubmitting({ action });
  const hydrated = useHydrated();
  const [form, fields] = useDealForm("deal-resolve", last?.result, {
    resolution: "release",
    ...defaults,
  } as Partial<DealActionFields>);
  // With JavaScript the seller's share shows only for «split»; without it, always, with a hint.
  const split = fields.resolution.value === "split";
  const resolutionErrorId = `${fields.resolution.id}-error`;
  return (
    <Form method="post" action={action} className="grid gap-3 rounded-xl border border-primary/40 p-4" {...getFormProps(form)}>
      <Hidden idempotencyKey={idempotencyKey} />
      <input type="hidden" name="intent" value="resolve" />
      <h3 className="font-semibold">Решение по спору</h3>
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset
        className="grid gap-2 text-sm"
        aria-invalid={fields.resolution.errors ? true : undefined}
        aria-describedby={fields.resolution.errors ? resolutionErrorId : undefined}
      >
        <legend className="mb-1 font-medium">Решение</legend>
        {DEAL_RESOLUTIONS.map((r) => (
          <label key={r} className="flex items-center gap-2">
            <input {...getInputProps(fields.resolution, { type: "radio", value: r })} id={`${fields.resolution.id}-${r}`} className="size-4" />
            {DEAL_RESOLUTION_LABELS[r]}
            {r === "release" ? ` (${formatKopecks(deal.amount - deal.sellerFee)} продавцу, комиссия ${formatKopecks(deal.fee)})` : null}
            {r === "refund" ? ` (${formatKopecks(deal.amount + deal.buyerFee)} покупателю)` : null}
          </label>
        ))}
        {fields.resolution.errors ? (
          <p id={resolutionErrorId} className="text-sm text-destructive">
            {fields.resolution.errors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      {!hydrated || split ? (
        <AmountField
          field={fields.sellerShare}
          label="Доля продавца при разделе"
          placeholder="500"
          description={
            <>
              {hydrated ? null : "Только для решения «Разделить сумму». "}
              Остаток суммы и комиссия покупателя вернутся покупателю; комиссия не берётся. Сумма сделки {formatKopecks(deal.amount)}.
            </>
          }
        />
      ) : null}
      <Field label="Пояснение" id={fields.note.id} errors={fields.note.errors}>
        <Textarea {...getTextareaProps(fields.note)} rows={3} placeholder="Почему принято такое решение" />
      </Field>
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? "Выполняется…" : "Вынести решение"}
        </Button>
      </div>
    </Form>
  );
}
