/**
 * The form of /claims/new (docs/product/claims.md#filing-a-claim): who, how much (roubles), what
 * happened, evidence links (one per line) and an optional deal number. Validated in the browser
 * with JavaScript and always on the server; works without JavaScript.
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
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { CLAIM_LIMITS } from "~/domain/claims/types";
import { formatKopecks, MAX_OPERATION_KOPECKS } from "~/domain/ledger/money";
import { FileClaimPageSchema } from "./schemas";
import { formatCount } from "~/lib/format";

export interface ClaimFormValues {
  accused: string;
  amount: string;
  description: string;
  evidence: string;
  dealId: string;
}

/** `idempotencyKey`: made by the page's loader, so a resubmitted form files one claim. */
export function ClaimForm({
  idempotencyKey,
  lastResult,
  defaultValue,
}: {
  idempotencyKey: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Partial<ClaimFormValues>;
}) {
  const submitting = useSubmitting({ action: "/claims/new" });
  const [form, fields] = useForm({
    lastResult,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: FileClaimPageSchema }),
  });
  return (
    <Form method="post" action="/claims/new" className="grid gap-5" {...getFormProps(form)}>
      <AuthenticityTokenInput />
      <IdempotencyKeyInput value={idempotencyKey} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="На кого претензия" id={fields.accused.id} errors={fields.accused.errors} description="Имя пользователя, например @ivan_petrov.">
          <Input {...getInputProps(fields.accused, { type: "text" })} autoComplete="off" placeholder="@username" />
        </Field>
        <AmountField field={fields.amount} label="Сумма ущерба" description={`От 0,01 до ${formatKopecks(MAX_OPERATION_KOPECKS)}, например 1 234,50.`} />
      </div>
      <Field
        label="Что произошло"
        id={fields.description.id}
        errors={fields.description.errors}
        description={`От ${CLAIM_LIMITS.descriptionMin} до ${formatCount(CLAIM_LIMITS.descriptionMax)} символов: что было обещано, что вы оплатили, что пошло не так.`}
      >
        <Textarea {...getTextareaProps(fields.description)} rows={8} />
      </Field>
      <Field
        label="Доказательства"
        id={fields.evidence.id}
        errors={fields.evidence.errors}
        description={`Ссылки на скриншоты, переписку, чеки — по одной в строке, до ${CLAIM_LIMITS.evidenceMax}, только http:// или https://.`}
      >
        <Textarea {...getTextareaProps(fields.evidence)} rows={4} className="font-mono text-sm" placeholder="https://…" />
      </Field>
      <Field
        label="Номер сделки (если была)"
        id={fields.dealId.id}
        errors={fields.dealId.errors}
        description="Сделка через гаранта между вами и этим участником, например 12."
      >
        <Input {...getInputProps(fields.dealId, { type: "text" })} inputMode="numeric" autoComplete="off" placeholder="12" className="max-w-40" />
      </Field>
      <div>
        <Button type="submit" size="lg" disabled={submitting}>
          {submitting ? "Отправляем…" : "Подать претензию"}
        </Button>
      </div>
    </Form>
  );
}
