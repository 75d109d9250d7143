/**
 * The open conversation's messages in the browser: pages loaded from the server, messages that
 * arrived live or came back from one's own send, edits and deletions — merged by id, so the
 * realtime frame of a message one just sent never shows it twice. Pure functions.
 */
import { messageExcerpt } from "~/domain/conversations/excerpt";
import type { MessageDto, MessageFrameData } from "~/domain/conversations/types";
import { SERVER_TIME_ZONE } from "~/lib/format";

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
  return { ...message, body: "", image: null, deleted: true };
}

/**
 * The live messages after a conversation frame: a new or edited message is stored by id; a
 * deletion marks the known copy (from `known`, the messages on screen) deleted. Messages
 * quoting an edited or deleted one get their quote changed as the server would quote it.
 */
export function applyFrame(live: readonly MessageDto[], known: readonly MessageDto[], frame: MessageFrameData): MessageDto[] {
  switch (frame.type) {
    case "message.created":
      return mergeMessages(live, [frame.message]);
    case "message.updated":
      return mergeMessages(
        live,
        [frame.message],
        requoted(live, known, frame.message.id, { excerpt: messageExcerpt(frame.message.body, frame.message.image !== null) }),
      );
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

/** True for data shaped like a message frame (created, updated, deleted) on a conversation channel. */
export function isConversationFrame(data: unknown): data is MessageFrameData {
  if (typeof data !== "object" || data === null) return false;
  const frame = data as { type?: unknown; message?: { id?: unknown }; messageId?: unknown };
  if (frame.type === "message.created" || frame.type === "message.updated") return typeof frame.message?.id === "number";
  return frame.type === "message.deleted" && typeof frame.messageId === "number";
}

/** True for a read-marker frame `{type: "read", userId, upTo}` (docs/product/conversations.md#read-receipts). */
export function isReadFrame(data: unknown): data is { type: "read"; userId: number; upTo: number } {
  if (typeof data !== "object" || data === null) return false;
  const frame = data as { type?: unknown; userId?: unknown; upTo?: unknown };
  return frame.type === "read" && typeof frame.userId === "number" && typeof frame.upTo === "number";
}

/**
 * Messages grouped by calendar day in `timeZone` (Moscow on the server and before hydration, the
 * reader's zone after it) for the day separators (docs/product/interface.md#dates-and-numbers).
 */
export function groupByDay(messages: readonly MessageDto[], timeZone: string = SERVER_TIME_ZONE): { day: string; messages: MessageDto[] }[] {
  const groups: { day: string; messages: MessageDto[] }[] = [];
  for (const message of messages) {
    const day = dayKey(message.createdAt, timeZone);
    const current = groups[groups.length - 1];
    if (current && current.day === day) current.messages.push(message);
    else groups.push({ day, messages: [message] });
  }
  return groups;
}

/** Intl formatters are costly to build: one per options and zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, options: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}|${timeZone}`;
  let format = formatters.get(key);
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(locale, { ...options, timeZone })));
  return format;
}

/** «2026-11-21»: the calendar day of an ISO time in `timeZone` (Moscow by default). */
export function dayKey(iso: string, timeZone: string = SERVER_TIME_ZONE): string {
  return formatter("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }, timeZone).format(new Date(iso));
}

/**
 * The separator above a day's messages: «Сегодня», «Вчера», «21 ноября», or «21 ноября 2025 г.»
 * for another year; today and yesterday are counted in `timeZone`.
 */
export function dayTitle(day: string, now = new Date(), timeZone: string = SERVER_TIME_ZONE): string {
  const today = dayKey(now.toISOString(), timeZone);
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  const yesterday = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  if (day === today) return "Сегодня";
  if (day === yesterday) return "Вчера";
  // Noon UTC of that calendar day, formatted in UTC, names that day whatever the zone.
  const date = new Date(`${day}T12:00:00Z`);
  const options: Intl.DateTimeFormatOptions =
    day.slice(0, 4) === today.slice(0, 4) ? { day: "numeric", month: "long" } : { day: "numeric", month: "long", year: "numeric" };
  return formatter("ru-RU", options, "UTC").format(date);
}

/** «14:05» in `timeZone` (Moscow by default). */
export function formatMessageTime(iso: string, timeZone: string = SERVER_TIME_ZONE): string {
  return formatter("ru-RU", { hour: "2-digit", minute: "2-digit" }, timeZone).format(new Date(iso));
}

/** For the conversation list: the time for today's messages, else «21 нояб.». */
export function formatListTime(iso: string, now = new Date(), timeZone: string = SERVER_TIME_ZONE): string {
  return dayKey(iso, timeZone) === dayKey(now.toISOString(), timeZone)
    ? formatMessageTime(iso, timeZone)
    : formatter("ru-RU", { day: "numeric", month: "short" }, timeZone).format(new Date(iso));
}

/**
 * Messages a moderator restored (docs/product/moderation.md#content-actions), by id. Merging
 * lets a deleted copy win over any other (a deletion is final for authors), so a restore is
 * kept apart: `incoming` — a `message.updated` frame's message, or a page fresh from the
 * loader — that shows undeleted a message the screen (`shown`) has as deleted by a moderator
 * records it; any later version of a recorded message (an edit, a new deletion) replaces or
 * drops the record. Returns the new map (the same one when nothing changed).
 */
export function trackRestored(
  restored: ReadonlyMap<number, MessageDto>,
  shown: readonly MessageDto[],
  incoming: readonly MessageDto[],
): ReadonlyMap<number, MessageDto> {
  let next: Map<number, MessageDto> | null = null;
  const edit = () => (next ??= new Map(restored));
  for (const message of incoming) {
    if (restored.has(message.id)) {
      if (message.deleted) edit().delete(message.id);
      else if (restored.get(message.id) !== message) edit().set(message.id, message);
      continue;
    }
    const copy = shown.find((m) => m.id === message.id);
    if (!message.deleted && copy?.deleted && copy.moderated) edit().set(message.id, message);
  }
  return next ?? restored;
}

/** `messages` with the restored ones (trackRestored) shown as restored. */
export function withRestored(messages: MessageDto[], restored: ReadonlyMap<number, MessageDto>): MessageDto[] {
  return restored.size === 0 ? messages : messages.map((m) => restored.get(m.id) ?? m);
}

/** `restored` without message `id` (deleted again). */
export function forgetRestored(restored: ReadonlyMap<number, MessageDto>, id: number): ReadonlyMap<number, MessageDto> {
  if (!restored.has(id)) return restored;
  const next = new Map(restored);
  next.delete(id);
  return next;
}
