/**
 * The frame of every form of /profile/settings (issue 6 item 4): a card section with a title and
 * a plain POST form that works without JavaScript, carrying the CSRF token and the form's
 * `intent`, the form-level errors, and a submit button that says it is working (with JavaScript).
 */
import { getFormProps, type FormMetadata } from "@conform-to/react";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FormErrors } from "~/components/forms/form-errors";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button, type ButtonProps } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/titled-card";
import { cn } from "~/lib/utils";

/** A titled card of the settings page (data-testid `settings-{id}`). */
export function SettingsSection({ id, title, description, children }: { id: string; title: string; description?: React.ReactNode; children: React.ReactNode }) {
  return (
    <TitledCard id={id} title={title} description={description} testId={`settings-${id}`}>
      {children}
    </TitledCard>
  );
}

export function SettingsForm<Schema extends Record<string, unknown>>({
  form,
  intent,
  submitLabel,
  submitVariant,
  multipart,
  className,
  children,
  extraButtons,
}: {
  form?: FormMetadata<Schema, string[]>;
  intent: string;
  submitLabel: string;
  submitVariant?: ButtonProps["variant"];
  /** Posts multipart/form-data (file uploads). */
  multipart?: boolean;
  className?: string;
  children?: React.ReactNode;
  /** Buttons beside the submit button (e.g. another form's button through `form=`). */
  extraButtons?: React.ReactNode;
}) {
  const submitting = useSubmitting({ intent });
  return (
    <Form
      method="post"
      {...(form ? getFormProps(form) : {})}
      encType={multipart ? "multipart/form-data" : undefined}
      className={cn("grid gap-4", className)}
      data-testid={`${intent}-form`}
    >
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value={intent} />
      {form ? <FormErrors id={form.errorId} errors={form.errors} /> : null}
      {children}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant={submitVariant} disabled={submitting}>
          {submitting ? "Сохраняем…" : submitLabel}
        </Button>
        {extraButtons}
      </div>
    </Form>
  );
}
