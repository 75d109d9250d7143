import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { DealActionFormSchema } from "~/domain/deals/schemas";
import { DEAL_ACTION_LABELS, DEAL_RESOLUTION_LABELS, DEAL_RESOLUTIONS, type DealAction, type DealDetailDto } from "~/domain/deals/types";
import { formatKopecks } from "~/domain/ledger/money";

/** The buttons that need no more input, in the order they are shown. */
const BUTTONS: DealAction[] = ["accept", "fund", "deliver", "confirm", "agree_cancel", "request_cancel", "cancel"];
const DANGER: DealAction[] = ["cancel", "request_cancel"];

interface ActionFormProps {
  action: string;
  deal: DealDetailDto;
  idempotencyKey: string;
  /** The last refused submission and its intent, shown on the form that sent it. */
  last?: { intent: string | null; result: SubmissionResult<string[]> } | null;
}

function Hidden({ idempotencyKey }: { idempotencyKey: string }) {
  return (
    <>
      <AuthenticityTokenInput />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
    </>
  );
}

/**
 * Everything the viewer may do to the deal now (deal.viewer.actions): one form of buttons
 * (accept, fund, deliver, confirm, cancel…), the dispute form and the moderator's resolution
 * form. Every form posts to the deal page's action and works without JavaScript.
 */
export function DealActions({ action, deal, idempotencyKey, last }: ActionFormProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  const allowed = deal.viewer.actions;
  const buttons = BUTTONS.filter((a) => allowed.includes(a));
  const buttonError = last && last.intent !== "dispute" && last.intent !== "resolve" ? last.result.error?.[""] : null;
  if (allowed.length === 0) return null;
  return (
    <div className="grid gap-6" data-testid="deal-actions">
      {buttons.length > 0 ? (
        <Form method="post" action={action} className="grid gap-3">
          <Hidden idempotencyKey={idempotencyKey} />
          <FormErrors errors={buttonError ?? null} />
          <div className="flex flex-wrap gap-3">
            {buttons.map((a) => (
              <Button key={a} type="submit" name="intent" value={a} variant={DANGER.includes(a) ? "outline" : "default"} disabled={busy}>
                {a === "fund" ? `Оплатить ${formatKopecks(deal.amount + deal.buyerFee)}` : DEAL_ACTION_LABELS[a]}
              </Button>
            ))}
          </div>
        </Form>
      ) : null}
      {allowed.includes("dispute") ? <DisputeForm action={action} deal={deal} idempotencyKey={idempotencyKey} last={last?.intent === "dispute" ? last : null} /> : null}
      {allowed.includes("resolve") ? <ResolveForm action={action} deal={deal} idempotencyKey={idempotencyKey} last={last?.intent === "resolve" ? last : null} /> : null}
    </div>
  );
}

function DisputeForm({ action, idempotencyKey, last }: ActionFormProps) {
  const [form, fields] = useForm({
    id: "deal-dispute",
    lastResult: last?.result,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DealActionFormSchema }),
  });
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
        <Button type="submit" variant="destructive">
          Открыть спор
        </Button>
      </div>
    </Form>
  );
}

function ResolveForm({ action, deal, idempotencyKey, last }: ActionFormProps) {
  const [form, fields] = useForm({
    id: "deal-resolve",
    lastResult: last?.result,
    defaultValue: { resolution: "release" },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DealActionFormSchema }),
  });
  return (
    <Form method="post" action={action} className="grid gap-3 rounded-xl border border-primary/40 p-4" {...getFormProps(form)}>
      <Hidden idempotencyKey={idempotencyKey} />
      <input type="hidden" name="intent" value="resolve" />
      <h3 className="font-semibold">Решение по спору</h3>
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset className="grid gap-2 text-sm">
        <legend className="mb-1 font-medium">Решение</legend>
        {DEAL_RESOLUTIONS.map((r) => (
          <label key={r} className="flex items-center gap-2">
            <input type="radio" name={fields.resolution.name} value={r} defaultChecked={(fields.resolution.initialValue ?? "release") === r} />
            {DEAL_RESOLUTION_LABELS[r]}
            {r === "release" ? ` (${formatKopecks(deal.amount - deal.sellerFee)} продавцу, комиссия ${formatKopecks(deal.fee)})` : null}
            {r === "refund" ? ` (${formatKopecks(deal.amount + deal.buyerFee)} покупателю)` : null}
          </label>
        ))}
      </fieldset>
      <Field
        label="Доля продавца при разделе, ₽"
        id={fields.sellerShare.id}
        errors={fields.sellerShare.errors}
        description={`Остаток суммы и комиссия покупателя вернутся покупателю; комиссия не берётся. Сумма сделки ${formatKopecks(deal.amount)}.`}
      >
        <Input {...getInputProps(fields.sellerShare, { type: "text" })} inputMode="decimal" placeholder="500" autoComplete="off" />
      </Field>
      <Field label="Пояснение" id={fields.note.id} errors={fields.note.errors}>
        <Textarea {...getTextareaProps(fields.note)} rows={3} placeholder="Почему принято такое решение" />
      </Field>
      <div>
        <Button type="submit">Вынести решение</Button>
      </div>
    </Form>
  );
}
