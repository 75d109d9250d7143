/**
 * The assistant's upstream: any OpenAI-compatible Chat Completions endpoint, through the official
 * `openai` client with `stream: true` (server-sent chunks `data: {...}` ending with
 * `data: [DONE]`). docs/decisions/0014-assistant-streaming-and-quota.md.
 *
 * Time limits: `timeoutMs` for the response and its first text, then again between any two
 * pieces of text (a stalled stream), and MAX_ANSWER_MS for the whole answer. Every failure
 * becomes an UpstreamFailure with a stable code (types.ts ASSISTANT_FAILURES); the text that
 * arrived before it is kept by the caller.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { AssistantConfig } from "~/lib/config.server";

/** The longest an answer may take in all, ms. */
export const MAX_ANSWER_MS = 5 * 60 * 1000;

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Why the upstream gave no (complete) answer. */
export class UpstreamFailure extends Error {
  constructor(
    readonly code: "upstream_timeout" | "upstream_stalled" | "upstream_unreachable" | "upstream_auth" | "upstream_busy" | "upstream_error" | "cancelled",
    readonly upstreamStatus?: number,
  ) {
    super(code);
    this.name = "UpstreamFailure";
  }
}

/**
 * Streams the answer to `messages` from the endpoint of `config`, calling `onText` with each
 * piece of text as it arrives; resolves when the stream ends with [DONE] (or closes cleanly).
 * Aborting `signal` (the member left or pressed «Остановить») stops it with `cancelled`.
 * Throws UpstreamFailure: `upstream_timeout` (no text within timeoutMs), `upstream_stalled`
 * (text stopped for timeoutMs, or the whole answer passed MAX_ANSWER_MS), `upstream_unreachable`
 * (no connection), `upstream_auth` (401/403), `upstream_busy` (429), `upstream_error` (any other
 * error status or an error inside the stream), `cancelled`.
 */
export async function streamChatCompletion(
  config: Pick<AssistantConfig, "baseUrl" | "apiKey" | "model" | "timeoutMs">,
  messages: ChatMessage[],
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const controller = new AbortController();
  let reason: UpstreamFailure["code"] | null = null;
  let received = false;
  const stop = (code: UpstreamFailure["code"]) => {
    reason ??= code;
    controller.abort();
  };
  let idle = setTimeout(() => stop("upstream_timeout"), config.timeoutMs);
  const whole = setTimeout(() => stop("upstream_stalled"), MAX_ANSWER_MS);
  const onAbort = () => stop("cancelled");
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const client = new OpenAI({ baseURL: config.baseUrl, apiKey: config.apiKey ?? "not-needed", maxRetries: 0, timeout: config.timeoutMs });
  try {
    const stream = await client.chat.completions.create({ model: config.model, messages, stream: true }, { signal: controller.signal });
    for await (const chunk of stream) {
      const text = chunk.choices?.[0]?.delta?.content;
      if (!text) continue;
      received = true;
      clearTimeout(idle);
      idle = setTimeout(() => stop("upstream_stalled"), config.timeoutMs);
      onText(text);
    }
    if (reason) throw new UpstreamFailure(reason);
  } catch (error) {
    if (error instanceof UpstreamFailure) throw error;
    if (reason) throw new UpstreamFailure(reason === "upstream_timeout" && received ? "upstream_stalled" : reason);
    throw classify(error);
  } finally {
    clearTimeout(idle);
    clearTimeout(whole);
    signal?.removeEventListener("abort", onAbort);
  }
}

function classify(error: unknown): UpstreamFailure {
  if (error instanceof APIUserAbortError) return new UpstreamFailure("cancelled");
  if (error instanceof APIConnectionTimeoutError) return new UpstreamFailure("upstream_timeout");
  if (error instanceof APIConnectionError) return new UpstreamFailure("upstream_unreachable");
  if (error instanceof APIError) {
    const status = error.status;
    if (status === 401 || status === 403) return new UpstreamFailure("upstream_auth", status);
    if (status === 429) return new UpstreamFailure("upstream_busy", status);
    return new UpstreamFailure("upstream_error", status);
  }
  // A malformed chunk or a dropped connection mid-stream.
  return new UpstreamFailure("upstream_error");
}
