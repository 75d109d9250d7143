/**
 * The frame of every wallet and deposit form (issue 5 item 7): a plain POST form that works
 * without JavaScript, with the CSRF token, the form's `intent`, the idempotency key its page's
 * loader made (a resubmission replays instead of paying twice), the form-level errors, and a
 * submit button that says it is working while the request runs (with JavaScript).
 */
import { getFormProps, getInputProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FormErrors } from "~/components/forms/form-errors";
import { Button, type ButtonProps } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/utils";

/** True while the page's form `intent` is being submitted (JavaScript only). */
export function useSubmitting(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

export function MoneyForm<Schema extends Record<string, unknown>>({
  form,
  intent,
  formKey,
  submitLabel,
  submitVariant,
  className,
  children,
  testId,
}: {
  form: FormMetadata<Schema, string[]>;
  intent: string;
  formKey: string;
  submitLabel: string;
  submitVariant?: ButtonProps["variant"];
  className?: string;
  children?: React.ReactNode;
  testId?: string;
}) {
  const submitting = useSubmitting(intent);
  return (
    <Form method="post" {...getFormProps(form)} className={cn("grid gap-4", className)} data-testid={testId}>
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="key" value={formKey} />
      <FormErrors id={form.errorId} errors={form.errors} />
      {children}
      <div>
        <Button type="submit" variant={submitVariant} disabled={submitting}>
          {submitting ? "Выполняется…" : submitLabel}
        </Button>
      </div>
    </Form>
  );
}

/** A rouble amount field: «1 234,50», with the ₽ sign beside it. */
export function AmountField({ field, label, description }: { field: FieldMetadata<unknown>; label: string; description?: string }) {
  return (
    <Field label={label} id={field.id} errors={field.errors} description={description}>
      {(control) => (
        <div className="flex items-center gap-2">
          <Input
            {...getInputProps(field, { type: "text" })}
            {...control}
            inputMode="decimal"
            autoComplete="off"
            placeholder="1 234,50"
            className="max-w-48"
          />
          <span aria-hidden className="text-muted-foreground">
            ₽
          </span>
        </div>
      )}
    </Field>
  );
}
