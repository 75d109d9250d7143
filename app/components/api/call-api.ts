/**
 * Browser calls to the JSON API with docs/product/routes.md#reply-envelope's toasts (docs/product/routes.md#reply-envelope):
 * a failure shows «Ошибка!» with the reply's message (or «Не удалось получить информацию от
 * {path}») and throws; a success shows «Успех!» when `successText` is given.
 */
import { toast } from "~/components/ui/use-toast";
import { FAILURE_TITLE, failureText, isSuccessReply, SUCCESS_TITLE } from "~/lib/reply-toast";

/** A failed API call: the HTTP status (500 when the network failed) and the text shown. */
export class ApiCallFailed extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiCallFailed";
  }
}

/**
 * Calls `path` (JSON in and out) and returns the parsed reply. Throws ApiCallFailed after the
 * «Ошибка!» toast when the status is not ok, the reply does not parse, or it is not a success.
 */
export async function callApi<T = unknown>(path: string, init: RequestInit & { successText?: string } = {}): Promise<T> {
  const { successText, ...requestInit } = init;
  let status = 500;
  let body: unknown = null;
  try {
    const response = await fetch(path, { credentials: "include", ...requestInit, headers: { Accept: "application/json", ...requestInit.headers } });
    status = response.status;
    body = await response.json().catch(() => null);
    if (response.ok && isSuccessReply(body)) {
      if (successText) toast({ title: SUCCESS_TITLE, description: successText });
      return body as T;
    }
  } catch {
    // The network failed: the fallback text below.
  }
  const message = failureText(path, body);
  toast({ variant: "destructive", title: FAILURE_TITLE, description: message });
  throw new ApiCallFailed(status >= 400 ? status : 500, message);
}
