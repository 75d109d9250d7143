/**
 * The form of /claims/new (PRODUCT.md Claims and blacklist): who, how much (roubles), what
 * happened, evidence links (one per line) and an optional deal number. Validated in the browser
 * with JavaScript and always on the server; works without JavaScript.
 */
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { FileClaimFormSchema } from "~/domain/claims/schemas";
import { CLAIM_LIMITS } from "~/domain/claims/types";

export interface ClaimFormValues {
  accused: string;
  amount: string;
  description: string;
  evidence: string;
  dealId: string;
}

export function ClaimForm({ lastResult, defaultValue }: { lastResult?: SubmissionResult<string[]> | null; defaultValue?: Partial<ClaimFormValues> }) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction === "/claims/new";
  const [form, fields] = useForm({
    lastResult,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: FileClaimFormSchema }),
  });
  return (
    <Form method="post" action="/claims/new" className="grid gap-5" {...getFormProps(form)}>
      <AuthenticityTokenInput />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="На кого претензия" id={fields.accused.id} errors={fields.accused.errors} description="Имя пользователя, например @ivan_petrov.">
          <Input {...getInputProps(fields.accused, { type: "text" })} autoComplete="off" placeholder="@username" />
        </Field>
        <Field label="Сумма ущерба, ₽" id={fields.amount.id} errors={fields.amount.errors} description="От 0,01 до 10 000 000 ₽, например 1 234,50.">
          <Input {...getInputProps(fields.amount, { type: "text" })} inputMode="decimal" autoComplete="off" placeholder="1 234,50" />
        </Field>
      </div>
      <Field
        label="Что произошло"
        id={fields.description.id}
        errors={fields.description.errors}
        description={`От ${CLAIM_LIMITS.descriptionMin} до ${CLAIM_LIMITS.descriptionMax.toLocaleString("ru-RU")} символов: что было обещано, что вы оплатили, что пошло не так.`}
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
      <Field label="Номер сделки (если была)" id={fields.dealId.id} errors={fields.dealId.errors} description="Сделка через гаранта между вами и этим участником, например 12.">
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
