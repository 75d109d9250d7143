/**
 * «Пожаловаться» (docs/product/moderation.md#reports): the form of a report — the reason
 * (спам, мошенничество, оскорбления, другое) and an optional text, required for «другое».
 * It posts to /report, which works without JavaScript (a page of its own); with JavaScript
 * ReportButton opens the same form in a dialog and sends it by a fetcher.
 */
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { FormActionData } from "~/components/forms/action-data";
import { FetcherMarker } from "~/components/forms/fetcher-marker";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { ReportFormSchema } from "~/domain/moderation/schemas";
import { REPORT_REASON_LABELS, type ReportReason, type ReportTargetType } from "~/domain/moderation/types";

/** Where report forms post. */
export const REPORT_PATH = "/report";

/** The address of the report page of an item (the link without JavaScript). */
export function reportHref(type: ReportTargetType, id: number, back: string): string {
  return `${REPORT_PATH}?${new URLSearchParams({ type, id: String(id), back }).toString()}`;
}

const REASON_HINTS: Record<ReportReason, string> = {
  spam: "Реклама, повторяющиеся сообщения, ссылки не по теме",
  fraud: "Обман, попытка выманить деньги или данные",
  abuse: "Грубость, угрозы, травля",
  other: "Опишите, что не так",
};

export interface ReportFormProps {
  type: ReportTargetType;
  id: number;
  /** The page to return to after the report is filed. */
  back: string;
  /** The refused submission when the page was rendered by the action (JavaScript off). */
  lastResult?: SubmissionResult<string[]> | null;
  /** With JavaScript (in the dialog): called once the report was filed. */
  onFiled?: () => void;
  onCancel?: () => void;
}

/** The report form; sent by a fetcher when `onFiled` is given, else a plain form post. */
export function ReportForm({ type, id, back, lastResult, onFiled, onCancel }: ReportFormProps) {
  const fetcher = useFetcher<FormActionData>();
  const viaFetcher = onFiled !== undefined;
  const formId = useId();
  const [form, fields] = useForm({
    id: `report-${formId}`,
    lastResult: viaFetcher ? fetcher.data?.result : lastResult,
    defaultValue: { reason: "spam" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReportFormSchema }),
  });
  // A filed report redirects back (a fetcher follows it): the answer holds no reply then.
  const sent = useRef(false);
  useEffect(() => {
    if (fetcher.state !== "idle") sent.current = true;
    else if (sent.current) {
      sent.current = false;
      if (!fetcher.data) onFiled?.();
    }
  }, [fetcher.state, fetcher.data, onFiled]);
  const FormTag = viaFetcher ? fetcher.Form : Form;
  const submitting = fetcher.state !== "idle";
  return (
    <FormTag method="post" action={reportHref(type, id, back)} preventScrollReset className="grid gap-4" {...getFormProps(form)} data-testid="report-form">
      <AuthenticityTokenInput />
      {viaFetcher ? <FetcherMarker /> : null}
      <input type="hidden" name="targetType" value={type} />
      <input type="hidden" name="targetId" value={id} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset className="grid gap-2" aria-describedby={fields.reason.errors ? `${fields.reason.id}-error` : undefined}>
        <legend className="mb-1 text-sm font-medium">Причина</legend>
        {(Object.keys(REPORT_REASON_LABELS) as ReportReason[]).map((reason) => (
          <label
            key={reason}
            className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 has-checked:border-primary has-checked:bg-primary/5"
          >
            <input
              type="radio"
              name={fields.reason.name}
              value={reason}
              defaultChecked={fields.reason.initialValue === reason}
              className="mt-1 accent-primary"
            />
            <span>
              <span className="block text-sm font-medium">{REPORT_REASON_LABELS[reason]}</span>
              <span className="block text-xs text-muted-foreground">{REASON_HINTS[reason]}</span>
            </span>
          </label>
        ))}
        {fields.reason.errors ? (
          <p id={`${fields.reason.id}-error`} className="text-sm text-destructive">
            {fields.reason.errors[0]}
          </p>
        ) : null}
      </fieldset>
      <Field label="Пояснение" id={fields.details.id} errors={fields.details.errors} description="Необязательно, кроме причины «Другое». До 1000 символов.">
        <Textarea {...getTextareaProps(fields.details)} rows={3} placeholder="Что именно нарушает правила?" />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={submitting}>
          {submitting ? "Отправляем…" : "Отправить жалобу"}
        </Button>
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Отмена
          </Button>
        ) : null}
      </div>
    </FormTag>
  );
}
