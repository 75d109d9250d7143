/**
 * Notifications (docs/product/notifications.md): stored per recipient with a read
 * flag, listed newest first, and delivered live on the recipient's `notifications` channel
 * once stored. Every stored type carries a group key (`comment:{id}`, …), so the same event
 * handled twice never notifies twice; likes are grouped Forem-style into one row per
 * (recipient, type, group_key), updated in place (likes.server.ts).
 *
 * Two rules hold for every notification, whatever created it: no one is notified of their own
 * action, and no one hears from a member they have blocked (docs/product/notifications.md#who-is-notified).
 * The rules that turn domain events into notifications live in subscribers.server.ts.
 */
import { and, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { blocks, notifications } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { toUserRefDto, type UserRefDto } from "../users/users.server";
import { loadNotificationRows, selectNotificationRows, toTargetDto, type NotificationJoinedRow } from "./rows.server";
import { isChatMessageType, NOTIFICATION_DESCRIPTION, notificationTitle, notificationUrl } from "./texts";
import type { NotificationDto, NotificationTargetDto, NotificationType } from "./types";

export type NotificationRow = typeof notifications.$inferSelect;

/** A notification to store: who hears of what, from whom, about which item. */
export interface NewNotification {
  recipientId: number;
  type: NotificationType;
  senderId: number;
  postId?: number | null;
  commentId?: number | null;
  wallPostId?: number | null;
  conversationId?: number | null;
  messageId?: number | null;
  dealId?: number | null;
  claimId?: number | null;
  /** Kopecks, for the money types. */
  amount?: number | null;
  subjectUserId?: number | null;
  /** The item the notification is about (`post:12`, `comment:7`, `message:3`): one row per recipient, type and key. */
  groupKey: string;
}

/** Notifications stored per batch when notifying many followers at once (well under PostgreSQL's 65 535 parameters). */
const BATCH = 500;

const notificationNotFound = () => new NotFound("Уведомление не найдено", "notification_not_found");

/** Everything the public shape needs, whether from a stored row or a live chat message. */
interface DtoSource {
  id: number | null;
  type: NotificationType;
  sender: UserRefDto;
  postId: number | null;
  commentId: number | null;
  wallPostId: number | null;
  conversationId: number | null;
  conversationName: string | null;
  messageId: number | null;
  dealId: number | null;
  claimId: number | null;
  amount: number | null;
  subjectUserId: number | null;
  target: NotificationTargetDto | null;
  actorCount: number;
  read: boolean;
  createdAt: Date;
  updatedAt: Date;
}

function buildDto(s: DtoSource): NotificationDto {
  const isGroupMessage = s.type === "PRIVATE_CONVERSATION_MESSAGE_NEW";
  const fields = {
    type: s.type,
    senderId: s.sender.id,
    postId: s.postId,
    comment: s.commentId !== null && s.postId !== null ? { id: s.commentId, postId: s.postId } : null,
    privateMessage: isGroupMessage && s.conversationId !== null ? { conversationId: s.conversationId, conversation: { name: s.conversationName ?? "" } } : null,
    privatePersonalMessage: s.type === "PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW" && s.conversationId !== null ? { conversationId: s.conversationId } : null,
    publicMessage:
      s.type === "PUBLIC_CONVERSATION_MESSAGE_MENTION" && s.conversationId !== null && s.messageId !== null
        ? { conversationId: s.conversationId, messageId: s.messageId }
        : null,
    wallPostId: s.wallPostId,
    dealId: s.dealId,
    claimId: s.claimId,
    amount: s.amount,
    subjectUserId: s.subjectUserId,
  };
  return {
    id: s.id,
    ...fields,
    // The username, as every list of the site names members (a display name is free text anyone could fake).
    sender: { name: s.sender.username, avatar: s.sender.image, ranks: s.sender.ranks },
    title: notificationTitle(s.type, s.sender.username, {
      actorCount: s.actorCount,
      conversationName: s.conversationName,
      dealId: s.dealId,
      claimId: s.claimId,
      amount: s.amount,
    }),
    description: NOTIFICATION_DESCRIPTION,
    url: notificationUrl({ ...fields, messageId: s.messageId }),
    target: s.target,
    actorCount: s.actorCount,
    read: s.read,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/**
 * The public shape of stored notification `row` sent by `sender` (its latest actor), about
 * `target` (docs/product/notifications.md#targets; see rows.server.ts for reading it).
 */
export function toNotificationDto(row: NotificationRow, sender: UserRefDto, target: NotificationTargetDto | null): NotificationDto {
  return buildDto({
    id: row.id,
    type: row.type,
    sender,
    postId: row.postId,
    commentId: row.commentId,
    wallPostId: row.wallPostId,
    conversationId: row.conversationId,
    conversationName: null,
    messageId: row.messageId,
    dealId: row.dealId,
    claimId: row.claimId,
    amount: row.amount,
    subjectUserId: row.subjectUserId,
    target,
    actorCount: Math.max(1, row.actorIds.length),
    read: row.readAt !== null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
}

/**
 * The live-only notification of a new group or personal message (docs/product/notifications.md#chat-messages: chat messages
 * are counted by the unread record, not stored): `id` null, unread, sent by the message's author.
 */
export function toChatMessageNotificationDto(input: {
  kind: "group" | "personal";
  sender: UserRefDto;
  conversationId: number;
  conversationName: string;
  sentAt: Date;
}): NotificationDto {
  const type: NotificationType = input.kind === "group" ? "PRIVATE_CONVERSATION_MESSAGE_NEW" : "PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW";
  return buildDto({
    id: null,
    type,
    sender: input.sender,
    postId: null,
    commentId: null,
    wallPostId: null,
    conversationId: input.conversationId,
    conversationName: input.kind === "group" ? input.conversationName : null,
    messageId: null,
    dealId: null,
    claimId: null,
    amount: null,
    subjectUserId: null,
    target: null,
    actorCount: 1,
    read: false,
    createdAt: input.sentAt,
    updatedAt: input.sentAt,
  });
}

/**
 * Which of `recipientIds` may hear from `senderId`: not the sender, not a member who blocked
 * the sender (docs/product/notifications.md#who-is-notified). Distinct ids, in the order given. One query (none for
 * an empty list).
 */
export async function recipientsHearingFrom(db: Db, senderId: number, recipientIds: readonly number[]): Promise<number[]> {
  const candidates = [...new Set(recipientIds)].filter((id) => id !== senderId && isValidId(id));
  if (candidates.length === 0) return [];
  const blocking = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(and(eq(blocks.blockedId, senderId), inArray(blocks.blockerId, candidates)));
  const refused = new Set(blocking.map((row) => row.blockerId));
  return candidates.filter((id) => !refused.has(id));
}

/** The public shape of a row read with its sender and target (rows.server.ts). */
export function joinedToDto(row: NotificationJoinedRow): NotificationDto {
  return toNotificationDto(row.notification, toUserRefDto(row.sender), toTargetDto(row));
}

/**
 * Stored notifications `ids` as their public shapes, in the order of `ids` (unknown ids left
 * out), with senders and targets: one query, none for an empty list.
 */
export async function loadNotificationDtos(db: Db, ids: readonly number[]): Promise<NotificationDto[]> {
  if (ids.length === 0) return [];
  const rows = await loadNotificationRows(db, inArray(notifications.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.notification.id, joinedToDto(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Sends each notification to its recipient's `notifications` channel (docs/product/realtime.md#channels). Call it after
 * the write committed. Resolves once every frame is handed to the hub.
 */
export async function publishNotifications(db: Db, dtos: { recipientId: number; dto: NotificationDto }[]): Promise<void> {
  const hub = realtimeHub(db);
  await Promise.all(dtos.map(({ recipientId, dto }) => hub.publishToUser(recipientId, dto)));
}

/**
 * Stores the non-grouped notifications `items` and publishes each new one live to its
 * recipient. Self-notifications and notifications from a member the recipient blocked are
 * dropped; an item whose (recipient, type, group key) is already stored is skipped, so handling
 * one event twice notifies once. Chat-message types are never stored (use the live frame).
 * Returns the stored notifications with their recipients, as their live frames carry them
 * (`raisesUnread` true). Works through `items` 500 at a time
 * (a post's followers may be many), each batch in three queries: block check, insert, senders.
 *
 * `options.respectBlocks` false keeps notifications from a blocked sender: the money and trust
 * types (a transfer, a deal, a claim, a moderator's decision) concern the recipient's money and
 * account, which a block must not hide (issue 10).
 */
export async function createNotifications(
  db: Db,
  items: readonly NewNotification[],
  options: { respectBlocks?: boolean } = {},
): Promise<{ recipientId: number; dto: NotificationDto }[]> {
  const storable = items.filter((item) => !isChatMessageType(item.type));
  const result: { recipientId: number; dto: NotificationDto }[] = [];
  for (let start = 0; start < storable.length; start += BATCH) {
    result.push(...(await storeBatch(db, storable.slice(start, start + BATCH), options.respectBlocks ?? true)));
  }
  return result;
}

async function storeBatch(db: Db, items: NewNotification[], respectBlocks: boolean): Promise<{ recipientId: number; dto: NotificationDto }[]> {
  const bySender = new Map<number, NewNotification[]>();
  for (const item of items) bySender.set(item.senderId, [...(bySender.get(item.senderId) ?? []), item]);
  const allowed: NewNotification[] = [];
  for (const [senderId, group] of bySender) {
    if (!respectBlocks) {
      allowed.push(...group.filter((item) => item.recipientId !== senderId));
      continue;
    }
    const hearing = new Set(
      await recipientsHearingFrom(
        db,
        senderId,
        group.map((item) => item.recipientId),
      ),
    );
    allowed.push(...group.filter((item) => hearing.has(item.recipientId)));
  }
  if (allowed.length === 0) return [];
  const stored = await db
    .insert(notifications)
    .values(
      allowed.map((item) => ({
        recipientId: item.recipientId,
        type: item.type,
        senderId: item.senderId,
        postId: item.postId ?? null,
        commentId: item.commentId ?? null,
        wallPostId: item.wallPostId ?? null,
        conversationId: item.conversationId ?? null,
        messageId: item.messageId ?? null,
        dealId: item.dealId ?? null,
        claimId: item.claimId ?? null,
        amount: item.amount ?? null,
        subjectUserId: item.subjectUserId ?? null,
        groupKey: item.groupKey,
        actorIds: [item.senderId],
      })),
    )
    .onConflictDoNothing({
      target: [notifications.recipientId, notifications.type, notifications.groupKey],
      where: sql`${notifications.groupKey} is not null`,
    })
    .returning();
  const dtos = await loadNotificationDtos(
    db,
    stored.map((row) => row.id),
  );
  const recipients = new Map(stored.map((row) => [row.id, row.recipientId]));
  // Each row here is new (a row already stored was skipped), so each raises the count.
  const result = dtos.map((dto) => ({ recipientId: recipients.get(dto.id!)!, dto: { ...dto, raisesUnread: true } }));
  await publishNotifications(db, result);
  return result;
}

/**
 * A page of `userId`'s notifications, the most recently updated first (a grouped like rises
 * when a new liker arrives), with their senders and targets (docs/product/notifications.md#targets).
 * Two queries whatever the page size: the rows joined with their senders and targets, and the count.
 */
export async function listNotifications(db: Db, userId: number, params: PageParams): Promise<Page<NotificationDto>> {
  const where = eq(notifications.recipientId, userId);
  const [rows, [total]] = await Promise.all([
    selectNotificationRows(db)
      .where(where)
      .orderBy(desc(notifications.updatedAt), desc(notifications.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ value: count() }).from(notifications).where(where),
  ]);
  return toPage(rows.map(joinedToDto), total?.value ?? 0, params);
}

/** How many of `userId`'s notifications are unread (the notification count of docs/product/notifications.md#unread-counting). One query. */
export async function countUnreadNotifications(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(notifications)
    .where(and(eq(notifications.recipientId, userId), isNull(notifications.readAt)));
  return row?.value ?? 0;
}

/**
 * Marks notification `id` of `userId` read (reading it twice keeps the first time) and returns
 * it, with the `url` to go to. Throws NotFound (`notification_not_found`) for an unknown id or
 * another member's notification (docs/product/engineering.md#private-resources-answer-404).
 */
export async function markNotificationRead(db: Db, userId: number, id: number): Promise<NotificationDto> {
  if (!isValidId(id)) throw notificationNotFound();
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.recipientId, userId)))
    .returning();
  if (!row) throw notificationNotFound();
  const [dto] = await loadNotificationDtos(db, [row.id]);
  return dto!;
}

/** Marks every unread notification of `userId` read. Returns how many were unread. One query. */
export async function markAllNotificationsRead(db: Db, userId: number): Promise<{ marked: number }> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.recipientId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return { marked: rows.length };
}
