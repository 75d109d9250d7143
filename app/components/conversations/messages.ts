/**
 * The open conversation's messages in the browser: pages loaded from the server, messages that
 * arrived live or came back from one's own send, edits and deletions — merged by id, so the
 * realtime frame of a message one just sent never shows it twice. Pure functions.
 */
import { excerptOf } from "~/domain/conversations/excerpt";
import type { ConversationFrameData, MessageDto } from "~/domain/conversations/types";

/** Of two versions of one message, the later one: deleted beats edited beats original. */
function later(a: MessageDto, b: MessageDto): MessageDto {
  if (a.deleted !== b.deleted) return a.deleted ? a : b;
  const aEdited = a.editedAt ? Date.parse(a.editedAt) : 0;
  const bEdited = b.editedAt ? Date.parse(b.editedAt) : 0;
  return aEdited > bEdited ? a : b;
}

/** Every message of `lists` once (its latest version), oldest first. */
export function mergeMessages(...lists: readonly (readonly MessageDto[])[]): MessageDto[] {
  const byId = new Map<number, MessageDto>();
  for (const list of lists) {
    for (const message of list) {
      const known = byId.get(message.id);
      byId.set(message.id, known ? later(known, message) : message);
    }
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** A message as a deletion leaves it: the text gone, «Сообщение удалено» shown instead. */
export function asDeleted(message: MessageDto): MessageDto {
  return { ...message, body: "", deleted: true };
}

/**
 * The live messages after a conversation frame: a new or edited message is stored by id; a
 * deletion marks the known copy (from `known`, the messages on screen) deleted. Messages
 * quoting an edited or deleted one get their quote changed as the server would quote it.
 */
export function applyFrame(live: readonly MessageDto[], known: readonly MessageDto[], frame: ConversationFrameData): MessageDto[] {
  switch (frame.type) {
    case "message.created":
      return mergeMessages(live, [frame.message]);
    case "message.updated":
      return mergeMessages(live, [frame.message], requoted(live, known, frame.message.id, { excerpt: excerptOf(frame.message.body) }));
    case "message.deleted": {
      const message = live.find((m) => m.id === frame.messageId) ?? known.find((m) => m.id === frame.messageId);
      const quotes = requoted(live, known, frame.messageId, { deleted: true });
      return message ? mergeMessages(live, [asDeleted(message)], quotes) : mergeMessages(live, quotes);
    }
  }
}

/** The messages quoting `quotedId`, with their quote changed by `patch` (the later copy of each). */
function requoted(
  live: readonly MessageDto[],
  known: readonly MessageDto[],
  quotedId: number,
  patch: Partial<NonNullable<MessageDto["replyTo"]>>,
): MessageDto[] {
  return mergeMessages(known, live)
    .filter((m) => m.replyTo?.id === quotedId)
    .map((m) => ({ ...m, replyTo: { ...m.replyTo!, ...patch } }));
}

/** True for data shaped like a conversation frame (what arrives on a conversation channel). */
export function isConversationFrame(data: unknown): data is ConversationFrameData {
  if (typeof data !== "object" || data === null) return false;
  const frame = data as { type?: unknown; message?: { id?: unknown }; messageId?: unknown };
  if (frame.type === "message.created" || frame.type === "message.updated") return typeof frame.message?.id === "number";
  return frame.type === "message.deleted" && typeof frame.messageId === "number";
}

/** Messages grouped by calendar day (Moscow time, as the rest of the site) for day separators. */
export function groupByDay(messages: readonly MessageDto[]): { day: string; messages: MessageDto[] }[] {
  const groups: { day: string; messages: MessageDto[] }[] = [];
  for (const message of messages) {
    const day = dayKey(message.createdAt);
    const current = groups[groups.length - 1];
    if (current && current.day === day) current.messages.push(message);
    else groups.push({ day, messages: [message] });
  }
  return groups;
}

const dayKeyFormat = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "Europe/Moscow" });
const dayTitleFormat = new Intl.DateTimeFormat("ru-RU", { day: "numeric", month: "long", timeZone: "Europe/Moscow" });
const dayTitleWithYear = new Intl.DateTimeFormat("ru-RU", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Moscow" });
const timeFormat = new Intl.DateTimeFormat("ru-RU", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Moscow" });
const shortDateFormat = new Intl.DateTimeFormat("ru-RU", { day: "numeric", month: "short", timeZone: "Europe/Moscow" });

/** «2026-11-21»: the Moscow calendar day of an ISO time. */
export function dayKey(iso: string): string {
  return dayKeyFormat.format(new Date(iso));
}

/** «Сегодня», «Вчера», «21 ноября», or «21 ноября 2025 г.» for another year. */
export function dayTitle(day: string, now = new Date()): string {
  const today = dayKey(now.toISOString());
  const yesterday = dayKey(new Date(now.getTime() - 86_400_000).toISOString());
  if (day === today) return "Сегодня";
  if (day === yesterday) return "Вчера";
  const date = new Date(`${day}T12:00:00+03:00`);
  return day.slice(0, 4) === today.slice(0, 4) ? dayTitleFormat.format(date) : dayTitleWithYear.format(date);
}

/** «14:05» in Moscow time. */
export function formatMessageTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

/** For the conversation list: the time for today's messages, else «21 нояб.». */
export function formatListTime(iso: string, now = new Date()): string {
  return dayKey(iso) === dayKey(now.toISOString()) ? formatMessageTime(iso) : shortDateFormat.format(new Date(iso));
}
