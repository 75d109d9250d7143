import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { FetcherMarker } from "~/components/forms/fetcher-marker";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { CreateCommentSchema, EditCommentSchema } from "~/domain/comments/schemas";

/**
 * What POST /post/{id}/comments answers a fetcher: Conform's reply (errors, or a reset after
 * success) and, on success, the comment's id.
 */
export interface CommentActionData {
  result: SubmissionResult<string[]>;
  commentId?: number;
}

export const commentsAction = (postId: number) => `/post/${postId}/comments`;

/** The hidden fields every comment form sends: CSRF token and, once JavaScript runs, the fetcher mark. */
export function CommentFormHiddenFields({ fetcher }: { fetcher: boolean }) {
  return (
    <>
      <AuthenticityTokenInput />
      {fetcher ? <FetcherMarker /> : null}
    </>
  );
}

export interface CommentFormProps {
  postId: number;
  intent: "create" | "edit";
  /** For a reply: the comment answered. */
  parentId?: number;
  /** For an edit: the comment changed. */
  commentId?: number;
  defaultBody?: string;
  label: string;
  submitLabel: string;
  placeholder?: string;
  /** Called once the server has accepted the form (JavaScript only). */
  onSaved?: () => void;
  /**
   * "fetcher" (the post page) answers in place; "navigate" (the retry page shown without
   * JavaScript after a refusal) goes back to the post when saved.
   */
  mode?: "fetcher" | "navigate";
  /** A reply to show before any fetcher answered (the retry page). */
  lastResult?: SubmissionResult<string[]> | null;
  autoFocus?: boolean;
}

/**
 * A comment editor posting to /post/{id}/comments: a new comment, a reply or an edit.
 * Works as a plain form without JavaScript (the action redirects back to the comment);
 * with JavaScript it posts through a fetcher, validates in the browser with the server's
 * schema, shows the server's refusals under the field and clears itself once saved.
 */
export function CommentForm({
  postId,
  intent,
  parentId,
  commentId,
  defaultBody,
  label,
  submitLabel,
  placeholder,
  onSaved,
  mode = "fetcher",
  lastResult,
  autoFocus,
}: CommentFormProps) {
  const fetcher = useFetcher<CommentActionData>();
  const schema = intent === "create" ? CreateCommentSchema : EditCommentSchema;
  const [form, fields] = useForm({
    lastResult: mode === "fetcher" ? (fetcher.data?.result ?? lastResult) : lastResult,
    defaultValue: { body: defaultBody ?? "" },
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });

  const saved = fetcher.state === "idle" && fetcher.data?.commentId !== undefined ? fetcher.data : undefined;
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  useEffect(() => {
    if (saved) onSavedRef.current?.();
  }, [saved]);

  const busy = fetcher.state === "submitting";
  const FormComponent = mode === "fetcher" ? fetcher.Form : Form;
  return (
    <FormComponent method="post" action={commentsAction(postId)} className="grid gap-3" {...getFormProps(form)}>
      <CommentFormHiddenFields fetcher={mode === "fetcher"} />
      <input type="hidden" name="intent" value={intent} />
      {parentId !== undefined ? <input type="hidden" name="parentId" value={parentId} /> : null}
      {commentId !== undefined ? <input type="hidden" name="commentId" value={commentId} /> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field label={label} id={fields.body.id} errors={fields.body.errors} labelClassName="sr-only">
        <Textarea
          {...getTextareaProps(fields.body)}
          rows={intent === "create" && parentId === undefined ? 4 : 3}
          placeholder={placeholder}
          autoFocus={autoFocus}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? "Отправляем…" : submitLabel}
        </Button>
        <p className="text-xs text-muted-foreground">Markdown и @упоминания. До 10 000 символов.</p>
      </div>
    </FormComponent>
  );
}
