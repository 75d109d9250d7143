/**
 * POST /api/assistant/messages — send a message to the assistant and read the answer as it is
 * written (issue 11; docs/decisions/0014-assistant-streaming-and-quota.md). Body JSON `{content, conversationId?}`
 * (no conversationId starts a new conversation), header `X-CSRF-Token`, cookie sign-in.
 *
 * Refusals come before the stream, as JSON with a stable code: 401 `unauthorized`, 403
 * `csrf_invalid`, 400 `invalid_body` / `invalid_input`, 404 `conversation_not_found`, 429
 * `assistant_quota_exceeded`, 503 `assistant_disabled`. Accepted, it answers 200
 * `text/event-stream`: `event: start` (conversation, the saved message, today's quota), `event:
 * delta` per piece of text, then `event: done` (the saved answer) or `event: failed` (the saved
 * answer with its error code and Russian explanation). Closing the connection stops the answer.
 */
import { z } from "zod";
import type { Route } from "./+types/messages";
import { runTurn, startTurn } from "~/domain/assistant/turn.server";
import type { AssistantStreamEvent } from "~/domain/assistant/types";
import { requireApiUser } from "~/lib/api.server";
import { validateCsrfHeaderOrForm } from "~/lib/csrf.server";
import { handleApi, ValidationFailed } from "~/lib/errors";

export { methodNotAllowed as loader } from "~/lib/api.server";

const BodySchema = z.object({
  content: z.string({ error: "Напишите сообщение" }),
  conversationId: z.number().int().optional(),
});

export async function action({ request, context }: Route.ActionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    await validateCsrfHeaderOrForm(request);
    const body = BodySchema.safeParse(await request.json().catch(() => null));
    if (!body.success) throw new ValidationFailed("Тело запроса — JSON {content, conversationId?}", undefined, "invalid_body");
    const { db, config } = context;
    const turn = await startTurn(db, config.assistant, user.id, body.data);
    const encoder = new TextEncoder();
    // Stopped by the member (closing the connection) or by the server shutting down.
    const stop = new AbortController();
    request.signal.addEventListener("abort", () => stop.abort(), { once: true });
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = ({ event, data }: AssistantStreamEvent) => {
          if (stop.signal.aborted) return;
          try {
            controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          } catch {
            stop.abort();
          }
        };
        send({ event: "start", data: { conversationId: turn.conversationId, userMessage: turn.userMessage, answerId: turn.answerId, usage: turn.usage } });
        const answer = await runTurn(db, config.assistant, turn, { signal: stop.signal, onText: (text) => send({ event: "delta", data: { text } }) });
        send(answer.status === "complete" ? { event: "done", data: { message: answer } } : { event: "failed", data: { message: answer } });
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      },
      cancel() {
        stop.abort();
      },
    });
    return new Response(stream, {
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" },
    });
  });
}
