/**
 * The assistant's public shapes and Russian explanations (issue 11; docs/product/pages.md
 * "/chatgpt"; docs/decisions/0014-assistant-streaming-and-quota.md). Pure: the page and its streaming reader use them.
 */

export interface AssistantConversationDto {
  id: number;
  title: string;
  /** ISO time of the last message. */
  updatedAt: string;
}

export type AssistantMessageStatus = "complete" | "streaming" | "failed";

export interface AssistantMessageDto {
  id: number;
  role: "user" | "assistant";
  /** The text as written (an answer's Markdown; partial when the answer failed midway). */
  content: string;
  /** An answer rendered from Markdown and sanitised; null for the member's own messages. */
  html: string | null;
  status: AssistantMessageStatus;
  /** Why an answer failed (ASSISTANT_FAILURES), else null. */
  errorCode: string | null;
  /** The Russian explanation of errorCode, else null. */
  errorMessage: string | null;
  createdAt: string;
}

/** Today's use of the daily quota. */
export interface AssistantUsageDto {
  used: number;
  quota: number;
  remaining: number;
}

/** What /chatgpt and /chatgpt/{id} show: whether the assistant is on, the limits, the conversations, the open one. */
export interface AssistantPageData {
  enabled: boolean;
  maxPromptChars: number;
  usage: AssistantUsageDto;
  conversations: AssistantConversationDto[];
  conversation: (AssistantConversationDto & { messages: AssistantMessageDto[] }) | null;
}

/** Why an answer failed, as the member reads it (stable codes: the message rows keep them). */
export const ASSISTANT_FAILURES: Record<string, string> = {
  upstream_timeout: "Ассистент не ответил вовремя. Попробуйте ещё раз чуть позже — запрос не засчитан в дневной лимит.",
  upstream_stalled: "Ответ оборвался: ассистент перестал присылать текст. Выше — то, что успело прийти; запрос не засчитан в дневной лимит.",
  upstream_unreachable: "Не удалось связаться с сервисом ассистента. Попробуйте позже — запрос не засчитан в дневной лимит.",
  upstream_auth: "Сервис ассистента отклонил ключ доступа сайта. Мы уже знаем о проблеме; запрос не засчитан в дневной лимит.",
  upstream_busy: "Сервис ассистента перегружен и просит подождать. Попробуйте через минуту — запрос не засчитан в дневной лимит.",
  upstream_error: "Сервис ассистента ответил ошибкой. Попробуйте позже — запрос не засчитан в дневной лимит.",
  upstream_empty: "Ассистент прислал пустой ответ. Попробуйте переформулировать вопрос — запрос не засчитан в дневной лимит.",
  cancelled: "Ответ остановлен.",
  interrupted: "Ответ прервался: сервер перезапускался. Отправьте вопрос ещё раз.",
};

/** The explanation of failure `code` (a generic one for unknown codes). */
export function failureMessage(code: string): string {
  return ASSISTANT_FAILURES[code] ?? ASSISTANT_FAILURES.upstream_error!;
}

/** Events of the answer stream (POST /api/assistant/messages, text/event-stream). */
export type AssistantStreamEvent =
  | { event: "start"; data: { conversationId: number; userMessage: AssistantMessageDto; answerId: number; usage: AssistantUsageDto } }
  | { event: "delta"; data: { text: string } }
  | { event: "done"; data: { message: AssistantMessageDto } }
  | { event: "failed"; data: { message: AssistantMessageDto } };
