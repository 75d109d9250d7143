/**
 * One exchange with the assistant (issue 11; docs/decisions/0014-assistant-streaming-and-quota.md), in two steps so
 * the streaming route can refuse with a JSON error before it starts streaming:
 *
 * 1. startTurn: refuses while the assistant is off (`assistant_disabled`, 503: nothing is sent
 *    or saved), checks the message (1…ASSISTANT_MAX_PROMPT_CHARS characters), then in one
 *    transaction opens the conversation (or creates it, titled from the message), reserves a
 *    request of the day's quota, saves the member's message and an empty «streaming» answer.
 * 2. runTurn: sends the system prompt and the conversation's last messages upstream, hands each
 *    piece of text to `onText`, and saves the answer: «complete», or «failed» with a code and the
 *    text that arrived. An upstream failure gives the quota's request back. Never throws
 *    for upstream trouble: the failed answer is the result.
 */
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { assistantConversations, assistantMessages } from "~/db/schema";
import { AppError, ValidationFailed } from "~/lib/errors";
import type { AssistantConfig } from "~/lib/config.server";
import { isValidId } from "~/lib/ids";
import { isCleanText } from "~/lib/text";
import { conversationNotFound, titleFrom, toMessageDto } from "./conversations.server";
import { moscowDay, refundRequest, reserveRequest } from "./quota.server";
import type { AssistantMessageDto, AssistantUsageDto } from "./types";
import { streamChatCompletion, UpstreamFailure, type ChatMessage } from "./upstream.server";
import { logger } from "~/lib/logger.server";

/** Earlier messages sent along with a new one (the conversation's memory). */
export const HISTORY_MESSAGES = 20;

export interface TurnInput {
  /** An existing conversation of the member; absent starts a new one. */
  conversationId?: number;
  content: string;
}

export interface StartedTurn {
  userId: number;
  conversationId: number;
  userMessage: AssistantMessageDto;
  answerId: number;
  usage: AssistantUsageDto;
  /** The Moscow day the request was counted on (for a refund). */
  day: string;
}

/** Thrown while ASSISTANT_BASE_URL or ASSISTANT_MODEL is unset. */
export class AssistantDisabled extends AppError {
  constructor() {
    super("assistant_disabled", 503, "Ассистент выключен: администратор сайта ещё не подключил его. Сообщения никуда не отправляются.");
  }
}

/**
 * Step 1 (see the module comment) for member `userId`. Returns the started turn. Throws
 * AssistantDisabled (503 `assistant_disabled`), ValidationFailed (`invalid_input` under
 * `content`: empty, too long or with forbidden characters), NotFound (`conversation_not_found`),
 * RateLimited (429 `assistant_quota_exceeded`). Nothing is saved when it throws.
 */
export async function startTurn(db: Db, config: AssistantConfig, userId: number, input: TurnInput, now = new Date()): Promise<StartedTurn> {
  if (!config.enabled) throw new AssistantDisabled();
  const content = input.content.trim();
  const refuse = (message: string) => new ValidationFailed(message, { content: [message] }, "invalid_input");
  if (content.length === 0) throw refuse("Напишите сообщение");
  if (content.length > config.maxPromptChars) {
    throw refuse(
      `Сообщение слишком длинное: ${content.length.toLocaleString("ru-RU")} символов, можно не больше ${config.maxPromptChars.toLocaleString("ru-RU")}`,
    );
  }
  if (!isCleanText(content)) throw refuse("Сообщение содержит недопустимые символы");
  if (input.conversationId !== undefined && !isValidId(input.conversationId)) throw conversationNotFound();
  return db.transaction(async (tx) => {
    let conversationId: number;
    if (input.conversationId !== undefined) {
      const [own] = await tx
        .select({ id: assistantConversations.id })
        .from(assistantConversations)
        .where(and(eq(assistantConversations.id, input.conversationId), eq(assistantConversations.userId, userId)))
        .for("update");
      if (!own) throw conversationNotFound();
      conversationId = own.id;
      await tx.update(assistantConversations).set({ updatedAt: now }).where(eq(assistantConversations.id, own.id));
    } else {
      const [created] = await tx
        .insert(assistantConversations)
        .values({ userId, title: titleFrom(content), createdAt: now, updatedAt: now })
        .returning();
      conversationId = created!.id;
    }
    const usage = await reserveRequest(tx, userId, config.dailyQuota, now);
    const [userRow] = await tx.insert(assistantMessages).values({ conversationId, role: "user", content, createdAt: now }).returning();
    const [answer] = await tx
      .insert(assistantMessages)
      .values({ conversationId, role: "assistant", content: "", status: "streaming", createdAt: now })
      .returning({ id: assistantMessages.id });
    return { userId, conversationId, userMessage: toMessageDto(userRow!), answerId: answer!.id, usage, day: moscowDay(now) };
  });
}

/**
 * Step 2 (see the module comment). Returns the saved answer: status «complete», or «failed» with
 * errorCode (`upstream_timeout`, `upstream_stalled`, `upstream_unreachable`, `upstream_auth`,
 * `upstream_busy`, `upstream_error`, `upstream_empty`, `cancelled`) and its Russian errorMessage.
 */
export async function runTurn(
  db: Db,
  config: AssistantConfig,
  turn: StartedTurn,
  options: { onText?: (text: string) => void; signal?: AbortSignal } = {},
): Promise<AssistantMessageDto> {
  const history = await db
    .select({ role: assistantMessages.role, content: assistantMessages.content })
    .from(assistantMessages)
    .where(and(eq(assistantMessages.conversationId, turn.conversationId), lt(assistantMessages.id, turn.answerId), eq(assistantMessages.status, "complete")))
    .orderBy(desc(assistantMessages.id))
    .limit(HISTORY_MESSAGES);
  const messages: ChatMessage[] = [{ role: "system", content: config.systemPrompt }, ...history.reverse().filter((m) => m.content !== "")];
  let text = "";
  let failure: string | null = null;
  try {
    await streamChatCompletion(
      config,
      messages,
      (piece) => {
        text += piece;
        options.onText?.(piece);
      },
      options.signal,
    );
    if (text.trim() === "") failure = "upstream_empty";
  } catch (error) {
    if (!(error instanceof UpstreamFailure)) throw error;
    failure = error.code;
    if (error.upstreamStatus)
      logger.warn({ area: "assistant", upstreamStatus: error.upstreamStatus, code: error.code }, "the assistant's endpoint refused a request");
  }
  // Only a complete answer, or one the member stopped, uses up a request of the quota.
  if (failure && failure !== "cancelled") await refundRequest(db, turn.userId, turn.day);
  const [row] = await db
    .update(assistantMessages)
    .set({ content: text, status: failure ? "failed" : "complete", errorCode: failure })
    .where(eq(assistantMessages.id, turn.answerId))
    .returning();
  await db.update(assistantConversations).set({ updatedAt: new Date() }).where(eq(assistantConversations.id, turn.conversationId));
  return toMessageDto(row!);
}

/** Both steps for a form posted without JavaScript: the whole answer once it is ready. Throws as startTurn. */
export async function askAssistant(db: Db, config: AssistantConfig, userId: number, input: TurnInput, signal?: AbortSignal) {
  const turn = await startTurn(db, config, userId, input);
  const answer = await runTurn(db, config, turn, { signal });
  return { conversationId: turn.conversationId, answer };
}
