/**
 * The notification rules (docs/product/notifications.md, People, Content; docs/product/notifications.md#types-and-texts; the money and
 * trust types of issue 10 in trust-rules.server.ts): which domain
 * event notifies whom, with which type. Each event notifies a recipient at most once, by the
 * most specific reason (a reply beats a comment on your post, which beats a mention; a mention
 * in a post beats following its author). notifications.server.ts drops self-notifications and
 * notifications from blocked members, stores, and publishes live.
 */
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { follows, users } from "~/db/schema";
import { eventBus, type EventOf } from "~/lib/events.server";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { recordLike, takeOutUnliked } from "./likes.server";
import {
  onAdReviewed,
  onClaimDecided,
  onClaimFiled,
  onDealTransitioned,
  onHoldReleased,
  onReportResolved,
  onSanctionApplied,
  onTransferSent,
} from "./trust-rules.server";
import { createNotifications, recipientsHearingFrom, toChatMessageNotificationDto, type NewNotification } from "./notifications.server";
import type { NotificationType } from "./types";

/**
 * One notification per recipient: walks `byPriority` (recipients with their type, most
 * specific reason first) and keeps the first type seen for each recipient.
 */
function oncePerRecipient(byPriority: [NotificationType, readonly (number | null)[]][]): [number, NotificationType][] {
  const chosen = new Map<number, NotificationType>();
  for (const [type, recipientIds] of byPriority) {
    for (const id of recipientIds) if (id !== null && !chosen.has(id)) chosen.set(id, type);
  }
  return [...chosen];
}

/** post.created: POST_MENTION to the mentioned, POST_NEW (POST_NEW_VERIFIED for a verified author) to followers. */
async function onPostCreated(db: Db, event: EventOf<"post.created">): Promise<void> {
  const [[author], followers] = await Promise.all([
    db.select({ verified: users.verified }).from(users).where(eq(users.id, event.authorId)),
    db.select({ id: follows.followerId }).from(follows).where(eq(follows.followeeId, event.authorId)),
  ]);
  if (!author) return;
  const recipients = oncePerRecipient([
    ["POST_MENTION", event.mentionedUserIds],
    [author.verified ? "POST_NEW_VERIFIED" : "POST_NEW", followers.map((f) => f.id)],
  ]);
  await createNotifications(
    db,
    recipients.map(([recipientId, type]) => ({ recipientId, type, senderId: event.authorId, postId: event.postId, groupKey: `post:${event.postId}` })),
  );
}

/** comment.created: POST_COMMENT_REPLY to the parent's author, POST_COMMENT_NEW to the post's, POST_COMMENT_MENTION to the mentioned. */
async function onCommentCreated(db: Db, event: EventOf<"comment.created">): Promise<void> {
  const recipients = oncePerRecipient([
    ["POST_COMMENT_REPLY", [event.parentAuthorId]],
    ["POST_COMMENT_NEW", [event.postAuthorId]],
    ["POST_COMMENT_MENTION", event.mentionedUserIds],
  ]);
  await createNotifications(
    db,
    recipients.map(([recipientId, type]) => ({
      recipientId,
      type,
      senderId: event.authorId,
      postId: event.postId,
      commentId: event.commentId,
      groupKey: `comment:${event.commentId}`,
    })),
  );
}

/** wall_post.created: WALL_POST_NEW to the wall's owner (someone else wrote there), WALL_POST_MENTION to the mentioned. */
async function onWallPostCreated(db: Db, event: EventOf<"wall_post.created">): Promise<void> {
  const recipients = oncePerRecipient([
    ["WALL_POST_NEW", [event.ownerId]],
    ["WALL_POST_MENTION", event.mentionedUserIds],
  ]);
  await createNotifications(
    db,
    recipients.map(([recipientId, type]) => ({
      recipientId,
      type,
      senderId: event.authorId,
      wallPostId: event.wallPostId,
      groupKey: `wall_post:${event.wallPostId}`,
    })),
  );
}

/**
 * message.created: in a group or personal conversation, a live-only notification to every
 * recipient who has not blocked the author (docs/product/notifications.md#chat-messages: chat messages are counted through the unread
 * record, so these are not stored); in the public conversation, a stored
 * PUBLIC_CONVERSATION_MESSAGE_MENTION to each mentioned member.
 */
async function onMessageCreated(db: Db, event: EventOf<"message.created">): Promise<void> {
  const { message, conversation } = event;
  if (conversation.kind === "public") {
    const items: NewNotification[] = event.mentionedUserIds.map((recipientId) => ({
      recipientId,
      type: "PUBLIC_CONVERSATION_MESSAGE_MENTION",
      senderId: message.author.id,
      conversationId: conversation.id,
      messageId: message.id,
      groupKey: `message:${message.id}`,
    }));
    await createNotifications(db, items);
    return;
  }
  const recipients = await recipientsHearingFrom(db, message.author.id, event.recipientIds);
  const dto = toChatMessageNotificationDto({
    kind: conversation.kind,
    sender: message.author,
    conversationId: conversation.id,
    conversationName: conversation.name,
    sentAt: new Date(message.createdAt),
  });
  // One message between processes for the whole group, not one NOTIFY per recipient.
  await realtimeHub(db).publishToUsers(recipients, dto);
}

const registered = new WeakSet<Db>();

/**
 * Subscribes the notification rules to the domain events of `db` (once per database, from
 * app/domain/subscribers.server.ts; calling it again does nothing). Returns the unsubscribe
 * function (tests).
 */
export function registerNotificationRules(db: Db): () => void {
  if (registered.has(db)) return () => {};
  registered.add(db);
  const bus = eventBus(db);
  const unsubscribes = [
    bus.subscribe("post.created", (event) => onPostCreated(db, event)),
    bus.subscribe("comment.created", (event) => onCommentCreated(db, event)),
    bus.subscribe("wall_post.created", (event) => onWallPostCreated(db, event)),
    bus.subscribe("like.created", async (event) => void (await recordLike(db, event))),
    bus.subscribe("like.removed", async (event) => void (await takeOutUnliked(db, event))),
    bus.subscribe("message.created", (event) => onMessageCreated(db, event)),
    // Money and trust (issue 10): trust-rules.server.ts.
    bus.subscribe("transfer.sent", (event) => onTransferSent(db, event)),
    bus.subscribe("hold.released", (event) => onHoldReleased(db, event)),
    bus.subscribe("deal.transitioned", (event) => onDealTransitioned(db, event)),
    bus.subscribe("claim.filed", (event) => onClaimFiled(db, event)),
    bus.subscribe("claim.decided", (event) => onClaimDecided(db, event)),
    bus.subscribe("ad.reviewed", (event) => onAdReviewed(db, event)),
    bus.subscribe("report.resolved", (event) => onReportResolved(db, event)),
    bus.subscribe("sanction.applied", (event) => onSanctionApplied(db, event)),
  ];
  return () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
    registered.delete(db);
  };
}
