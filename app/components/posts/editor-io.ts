/**
 * The post editor's talk with the textarea and the server (docs/product/content.md#post-editor):
 * applying a toolbar edit as one undoable input, uploading a picture, fetching the preview.
 */
import { ApiCallFailed, callApi } from "~/components/api/call-api";
import type { TextEdit } from "./markdown-edits";

/**
 * Applies `edit` to `textarea` as the user's own typing would: through the browser's insertText
 * command, so Ctrl+Z undoes it and an input event tells the form; setRangeText where that command
 * is missing.
 */
export function applyToTextarea(textarea: HTMLTextAreaElement, edit: TextEdit): void {
  textarea.focus();
  textarea.setSelectionRange(edit.from, edit.to);
  const inserted = edit.insert === "" ? document.execCommand("delete") : document.execCommand("insertText", false, edit.insert);
  if (!inserted || textarea.value.slice(edit.from, edit.from + edit.insert.length) !== edit.insert) {
    textarea.setRangeText(edit.insert, edit.from, edit.to, "end");
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }
  textarea.setSelectionRange(edit.selectionStart, edit.selectionEnd);
}

/**
 * Replaces the first `search` in the textarea with `replacement`, keeping the member's cursor
 * where it was in the text around it (they may have typed on while a picture uploaded).
 * Returns false when `search` is no longer there (the member deleted it).
 */
export function replaceInTextarea(textarea: HTMLTextAreaElement, search: string, replacement: string): boolean {
  const at = textarea.value.indexOf(search);
  if (at === -1) return false;
  const end = at + search.length;
  // An offset after the placeholder moves with the text; one inside or at its end goes after the
  // replacement (the browser's "preserve" would select the whole replacement instead).
  const move = (offset: number) => (offset > end ? offset + replacement.length - search.length : offset > at ? at + replacement.length : offset);
  const [start, stop] = [move(textarea.selectionStart), move(textarea.selectionEnd)];
  textarea.setRangeText(replacement, at, end);
  textarea.setSelectionRange(start, stop);
  textarea.dispatchEvent(new Event("input", { bubbles: true }));
  return true;
}

/** The largest picture the server takes, checked before sending (MAX_POST_IMAGE_BYTES: 10 MB). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The server's own text for a file over the limit (app/lib/images/post-image.server.ts). */
export const TOO_LARGE_MESSAGE = "Файл слишком большой: не больше 10 МБ";
const FAILED_MESSAGE = "Не удалось загрузить изображение. Проверьте соединение и попробуйте ещё раз.";

/**
 * Uploads `file` to POST /api/uploads/images through callApi, so the result also shows as a toast
 * («Успех!» «Изображение загружено», or «Ошибка!» with the server's reason; docs/product/routes.md#reply-envelope);
 * resolves to its URL, or to the Russian reason it was refused, shown beside the editor too.
 */
export async function uploadImage(file: File, csrf: string): Promise<{ url: string } | { error: string }> {
  if (file.size > MAX_UPLOAD_BYTES) return { error: TOO_LARGE_MESSAGE };
  const body = new FormData();
  body.set("file", file);
  try {
    const reply = await callApi<{ data?: { url: string } }>("/api/uploads/images", {
      method: "POST",
      headers: { "X-CSRF-Token": csrf },
      body,
      successText: "Изображение загружено",
    });
    return reply.data ? { url: reply.data.url } : { error: FAILED_MESSAGE };
  } catch (error) {
    return { error: error instanceof ApiCallFailed && error.status !== 500 ? error.message : FAILED_MESSAGE };
  }
}

/** The body rendered by POST /api/posts/preview, or null when the request failed or was aborted. */
export async function fetchPreview(text: string, csrf: string, signal: AbortSignal): Promise<string | null> {
  const body = new FormData();
  body.set("body", text);
  try {
    const response = await fetch("/api/posts/preview", { method: "POST", headers: { "X-CSRF-Token": csrf }, body, signal });
    const reply = (await response.json()) as { success: boolean; data?: { html: string } };
    return reply.success && reply.data ? reply.data.html : null;
  } catch {
    return null;
  }
}
