/**
 * The frame of every wallet and deposit form (issue 5 item 7): a plain POST form that works
 * without JavaScript, with the CSRF token, the form's `intent`, the idempotency key its page's
 * loader made (a resubmission replays instead of paying twice), the form-level errors, and a
 * submit button that says it is working while the request runs (with JavaScript).
 */
import { getFormProps, type FormMetadata } from "@conform-to/react";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FormErrors } from "~/components/forms/form-errors";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button, type ButtonProps } from "~/components/ui/button";
import { cn } from "~/lib/utils";

export function MoneyForm<Schema extends Record<string, unknown>>({
  form,
  intent,
  formKey,
  submitLabel,
  submitVariant,
  disabled,
  className,
  children,
  testId,
}: {
  form: FormMetadata<Schema, string[]>;
  intent: string;
  formKey: string;
  submitLabel: string;
  submitVariant?: ButtonProps["variant"];
  /** Disables the button (and says why elsewhere), e.g. a withdrawal while a claim is open. */
  disabled?: boolean;
  className?: string;
  children?: React.ReactNode;
  testId?: string;
}) {
  const submitting = useSubmitting({ intent });
  return (
    <Form method="post" {...getFormProps(form)} className={cn("grid gap-4", className)} data-testid={testId}>
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value={intent} />
      <IdempotencyKeyInput value={formKey} />
      <FormErrors id={form.errorId} errors={form.errors} />
      {children}
      <div>
        <Button type="submit" variant={submitVariant} disabled={submitting || disabled}>
          {submitting ? "Выполняется…" : submitLabel}
        </Button>
      </div>
    </Form>
  );
}
