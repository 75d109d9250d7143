/**
 * The form under the open conversation: a new message, an answer (with the quoted message
 * above the field) or an edit of one's own message. Posts to the page's action; without
 * JavaScript the page comes back with the message in place (or the Russian refusal under the
 * field and the text kept); with it a fetcher sends it while the message shows at once, Enter
 * sends and Shift+Enter starts a new line.
 *
 * A new message may carry a picture (issue 14): «Прикрепить изображение» opens the form's real
 * file field `image` (the form is multipart, so it works without JavaScript too); with
 * JavaScript the chosen picture shows as a small preview with a remove button, and a picture
 * pasted into the text field is attached the same way.
 */
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { CornerUpLeft, ImagePlus, Pencil, SendHorizontal, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { type FetcherWithComponents } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FetcherMarker } from "~/components/forms/fetcher-marker";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { FieldErrors } from "~/components/ui/field";
import { EditMessageSchema, SendMessageSchema } from "~/domain/conversations/schemas";
import { CHAT_LIMITS, type MessageDto } from "~/domain/conversations/types";
import { cn } from "~/lib/utils";
import type { ConversationActionData } from "./action-data";
import { conversationHref, type ConversationAddress } from "./links";
import { DELETED_TEXT } from "./message-item";
import { formatCount } from "~/lib/format";

export interface MessageComposerProps {
  address: ConversationAddress;
  /** The fetcher that sends (JavaScript); absent, the form is a plain post. */
  fetcher?: FetcherWithComponents<ConversationActionData>;
  replyTo: MessageDto | null;
  editing: MessageDto | null;
  /** With JavaScript: leave the answer or edit in place (else a link drops `reply`/`edit`). */
  onCancel?: () => void;
  /** A refusal of this form after a plain post. */
  lastResult?: SubmissionResult<string[]> | null;
  /** Called with the trimmed text as a valid message leaves (JavaScript): the list scrolls down to it. */
  onSending?: (body: string) => void;
  /** Called on every change of the text (JavaScript): announces typing (docs/product/conversations.md#typing). */
  onTyping?: () => void;
}

/** The composer (see the module comment); `onSending` hears the text as it leaves, for the optimistic message. */
export function MessageComposer({ address, fetcher, replyTo, editing, onCancel, lastResult, onSending, onTyping }: MessageComposerProps) {
  const intent = editing ? "edit" : "send";
  const schema = editing ? EditMessageSchema : SendMessageSchema;
  const fetcherResult = fetcher?.data && fetcher.data.intent === intent ? fetcher.data.result : undefined;
  const [form, fields] = useForm({
    id: `composer-${address.kind}-${address.id}-${editing ? `edit-${editing.id}` : "send"}`,
    lastResult: fetcher?.state === "idle" ? (fetcherResult ?? lastResult) : lastResult,
    defaultValue: { body: editing?.body ?? "" },
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const [picture, setPicture] = useState<File | null>(null);
  const attachPicture = (file: File | null) => {
    const input = fileInput.current;
    if (input && file && input.files?.[0] !== file) {
      const transfer = new DataTransfer();
      transfer.items.add(file);
      input.files = transfer.files;
    }
    if (input && !file) input.value = "";
    setPicture(file);
  };
  // The text on its way (JavaScript): the field empties as it leaves and gets it back if refused.
  const leaving = useRef<string | null>(null);
  const answered = fetcher?.state === "idle" && fetcher.data?.intent === "send" ? fetcher.data : null;
  useEffect(() => {
    if (!answered) return;
    const text = leaving.current;
    leaving.current = null;
    if (!answered.ok) {
      // Refused: the text comes back (the picture stays chosen), unless a new one was typed meanwhile.
      if (text && textarea.current && textarea.current.value === "") textarea.current.value = text;
      return;
    }
    // A sent message leaves with its picture: the field is empty for the next one.
    if (fileInput.current) fileInput.current.value = "";
    setPicture(null);
  }, [answered]);
  const FormComponent = fetcher ? fetcher.Form : Form;
  const busy = fetcher?.state === "submitting";
  const formProps = getFormProps(form);
  const action = conversationHref(address);
  const context = editing ?? replyTo;

  return (
    <FormComponent
      method="post"
      action={action}
      encType="multipart/form-data"
      {...formProps}
      onSubmit={(event) => {
        formProps.onSubmit(event);
        if (event.defaultPrevented || !fetcher) return;
        const text = String(new FormData(event.currentTarget).get("body") ?? "");
        if (!editing) leaving.current = text;
        onSending?.(text.trim());
        // The message shows at once from the fetcher's form data: empty the field for the next one
        // (once the browser has read it). A refusal puts the text back.
        const field = textarea.current;
        window.setTimeout(() => {
          if (field && !editing) field.value = "";
        });
      }}
      className="border-t border-border bg-background/95 px-3 py-3 sm:px-4"
      data-testid="composer"
    >
      <AuthenticityTokenInput />
      {fetcher ? <FetcherMarker /> : null}
      <input type="hidden" name="intent" value={intent} />
      {editing ? <input type="hidden" name="messageId" value={editing.id} /> : null}
      {replyTo && !editing ? <input type="hidden" name="replyToId" value={replyTo.id} /> : null}
      {context ? (
        <div className="mb-2 flex items-start gap-2 rounded-lg bg-muted px-3 py-2 text-sm" data-testid="composer-context">
          {editing ? (
            <Pencil aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
          ) : (
            <CornerUpLeft aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
          )}
          <div className="min-w-0 flex-1">
            <p className="text-xs font-semibold text-primary">{editing ? "Редактирование" : `Ответ ${context.author.username}`}</p>
            <p className="truncate text-muted-foreground">{context.deleted ? DELETED_TEXT : context.body}</p>
          </div>
          {onCancel ? (
            <button
              type="button"
              onClick={onCancel}
              aria-label="Отменить"
              className="rounded p-0.5 text-muted-foreground hover:bg-accent hover:text-foreground"
            >
              <X aria-hidden className="size-4" />
            </button>
          ) : (
            <Link to={action} aria-label="Отменить" className="rounded p-0.5 text-muted-foreground hover:bg-accent hover:text-foreground">
              <X aria-hidden className="size-4" />
            </Link>
          )}
        </div>
      ) : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      {picture && !editing ? <PicturePreview file={picture} onRemove={() => attachPicture(null)} /> : null}
      {/* Without JavaScript the browser's own file field names the chosen file; on a phone it takes
          a row of its own, so that the message field keeps the row's width. */}
      <div className={cn("flex items-end gap-2", !hydrated && "flex-wrap sm:flex-nowrap")}>
        {editing ? null : (
          <label
            className={cn(
              "inline-flex h-11 min-w-11 shrink-0 cursor-pointer items-center gap-2 rounded-xl border border-input bg-background text-muted-foreground shadow-xs",
              "transition-colors hover:bg-accent hover:text-foreground has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/40",
              hydrated ? "justify-center" : "w-full px-2 sm:w-auto sm:max-w-48 sm:justify-center",
            )}
            title="Прикрепить изображение"
          >
            <ImagePlus aria-hidden className="size-5" />
            <input
              ref={fileInput}
              type="file"
              name={fields.image.name}
              id={fields.image.id}
              accept="image/*"
              aria-label="Прикрепить изображение"
              aria-invalid={fields.image.errors ? true : undefined}
              aria-describedby={fields.image.errors ? fields.image.errorId : undefined}
              onChange={(event) => setPicture(event.currentTarget.files?.[0] ?? null)}
              // With JavaScript the preview shows the choice; without it the browser's own field names the file.
              className={hydrated ? "sr-only" : "w-full min-w-0 text-xs file:hidden"}
              data-testid="composer-image"
            />
          </label>
        )}
        <label htmlFor={fields.body.id} className="sr-only">
          {editing ? "Новый текст сообщения" : "Сообщение"}
        </label>
        <textarea
          {...getTextareaProps(fields.body)}
          ref={textarea}
          rows={2}
          placeholder={editing ? "Новый текст сообщения" : "Напишите сообщение…"}
          autoFocus={Boolean(context)}
          onInput={editing ? undefined : onTyping}
          onPaste={(event) => {
            if (editing) return;
            const pasted = [...event.clipboardData.files].find((file) => file.type.startsWith("image/"));
            if (!pasted) return;
            // A picture pasted alone is attached; any text pasted with it goes into the field as usual.
            if (!event.clipboardData.getData("text/plain")) event.preventDefault();
            attachPicture(pasted);
          }}
          onKeyDown={(event) => {
            if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing || !fetcher) return;
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }}
          className={cn(
            "max-h-40 min-h-11 w-full flex-1 resize-none rounded-xl border border-input bg-background px-3.5 py-2.5 text-base shadow-xs outline-none md:text-sm",
            "placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
            "aria-invalid:border-destructive",
          )}
        />
        <Button type="submit" size="icon" className="size-11 shrink-0 rounded-xl" disabled={busy} aria-label={editing ? "Сохранить" : "Отправить"}>
          <SendHorizontal aria-hidden className="size-5" />
        </Button>
      </div>
      <FieldErrors id={fields.body.errorId} errors={fields.body.errors} className="mt-1" />
      <FieldErrors id={fields.image.errorId} errors={fields.image.errors} className="mt-1" />
      {fetcher ? (
        <p className="mt-1 hidden text-[11px] text-muted-foreground sm:block">
          Enter — отправить, Shift+Enter — новая строка. До {formatCount(CHAT_LIMITS.messageLength)} символов.
        </p>
      ) : null}
    </FormComponent>
  );
}

/** The chosen picture before it is sent: a thumbnail, its name and «Убрать изображение». */
function PicturePreview({ file, onRemove }: { file: File; onRemove: () => void }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return (
    <div className="mb-2 flex items-center gap-3 rounded-lg bg-muted px-2 py-2 text-sm" data-testid="composer-preview">
      {url ? <img src={url} alt="Выбранное изображение" className="size-14 shrink-0 rounded-md object-cover" /> : <span className="size-14 shrink-0" />}
      <span className="min-w-0 flex-1 truncate text-muted-foreground">{file.name || "Изображение"}</span>
      <button
        type="button"
        onClick={onRemove}
        aria-label="Убрать изображение"
        className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-muted-foreground hover:bg-accent hover:text-foreground"
      >
        <X aria-hidden className="size-5" />
      </button>
    </div>
  );
}
