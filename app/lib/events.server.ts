/**
 * Domain events (issue 3): each action publishes what happened after its transaction
 * commits, never from inside it (docs/product/engineering.md#events-after-commit). Subscribers — notifications, achievements,
 * realtime delivery — react without the acting code knowing them.
 *
 * The bus is per database handle and in-process; the realtime issue adds a PostgreSQL
 * LISTEN/NOTIFY transport for delivery across processes. Handlers run after the publisher
 * returns; a failing handler is logged and never fails the action that published.
 */
import type { Db } from "~/db/client.server";
import type { MessageDto } from "~/domain/conversations/types";
import { logger } from "./logger.server";
import type { DealAction } from "~/domain/deals/types";
import type { DealState } from "~/db/schema-trust";

export type LikeTarget = "post" | "comment" | "wall_post";

export type DomainEvent =
  | { type: "post.created"; postId: number; authorId: number; mentionedUserIds: number[] }
  | {
      type: "comment.created";
      commentId: number;
      postId: number;
      authorId: number;
      postAuthorId: number;
      /** The author of the comment replied to, or null for a top-level comment. */
      parentAuthorId: number | null;
      mentionedUserIds: number[];
    }
  | { type: "like.created"; target: LikeTarget; targetId: number; likerId: number; receiverId: number; postId: number | null }
  | { type: "like.removed"; target: LikeTarget; targetId: number; likerId: number; receiverId: number }
  | { type: "wall_post.created"; wallPostId: number; ownerId: number; authorId: number; mentionedUserIds: number[] }
  | { type: "follow.created"; followerId: number; followeeId: number }
  | {
      type: "message.created";
      message: MessageDto;
      conversation: { id: number; kind: "group" | "personal" | "public"; name: string };
      /** Members who should hear of it: every member but the author (empty for the public conversation). */
      recipientIds: number[];
      /** Mentioned members (public conversation), already filtered like other mentions. */
      mentionedUserIds: number[];
    }
  | { type: "message.updated"; message: MessageDto; conversation: { id: number; kind: "group" | "personal" | "public" } }
  | { type: "message.deleted"; messageId: number; conversation: { id: number; kind: "group" | "personal" | "public" } }
  | { type: "conversation.member_removed"; conversationId: number; userId: number }
  /** A member's first realtime connection in this process opened, or their last one closed (docs/product/conversations.md#online). */
  | { type: "presence.changed"; userId: number }
  /** A member's read marker moved forward to `upTo` (docs/product/conversations.md#read-receipts). */
  | { type: "conversation.read"; conversation: { id: number; kind: "group" | "personal" | "public" }; userId: number; upTo: number }
  /** A member's deposit balance changed (deposit, withdrawal, compensation); `deposit` is the new balance in kopecks. */
  | { type: "deposit.changed"; userId: number; deposit: number }
  /** A guarantor deal reached a final state paying the seller (completed by confirmation, automatically, or released by a moderator). */
  | { type: "deal.completed"; dealId: number; buyerId: number; sellerId: number }
  /** A claim was upheld: the accused is now a SCAMMER (docs/product/claims.md#scammer-rank). */
  | { type: "claim.upheld"; claimId: number; accusedId: number; claimantId: number }
  // Money and trust events of issue 10 (docs/product/notifications.md#money-and-trust): each is
  // published once, after the operation committed (never for a replayed idempotent retry).
  /** A member sent money to another; `holdId` when it waits on hold. `amount` in kopecks. */
  | { type: "transfer.sent"; transferId: number; senderId: number; recipientId: number; amount: number; holdId: number | null }
  /** A held transfer reached the recipient's available balance (released early by the sender, or on time). */
  | { type: "hold.released"; holdId: number; senderId: number; recipientId: number; amount: number }
  /** A guarantor deal was created or moved (`actorId` null: the scheduler's automatic completion). */
  | {
      type: "deal.transitioned";
      dealId: number;
      action: DealAction | "create" | "auto_complete";
      actorId: number | null;
      buyerId: number;
      sellerId: number;
      createdById: number;
      toState: DealState;
    }
  | { type: "claim.filed"; claimId: number; claimantId: number; accusedId: number }
  | { type: "claim.decided"; claimId: number; claimantId: number; accusedId: number; moderatorId: number; upheld: boolean }
  /** An admin approved or rejected an ad request (docs/product/pages.md#ads); the advertiser hears of it. */
  | { type: "ad.reviewed"; adId: number; advertiserId: number; adminId: number; approved: boolean }
  // Moderation (issue 10, docs/product/moderation.md).
  /** A moderator suspended or muted a member; `endsAt` ISO or null for good. */
  | { type: "sanction.applied"; sanctionId: number; userId: number; moderatorId: number; kind: "suspend" | "mute"; endsAt: string | null }
  /**
   * A moderator decided the open reports of an item: every reporter hears the outcome.
   * `link` names what the notification links to (the item, or the reported profile).
   */
  | {
      type: "report.resolved";
      moderatorId: number;
      outcome: "dismiss" | "delete" | "suspend" | "mute";
      reports: { id: number; reporterId: number }[];
      link: {
        postId?: number | null;
        commentId?: number | null;
        wallPostId?: number | null;
        conversationId?: number | null;
        messageId?: number | null;
        subjectUserId?: number | null;
      };
    };

export type DomainEventType = DomainEvent["type"];
/** The event of type `T`. */
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
type Handler<E extends DomainEvent = DomainEvent> = (event: E, db: Db) => Promise<void> | void;

export interface EventBus {
  /** Queues `event` for every subscriber; call it after the transaction has committed. */
  publish(event: DomainEvent): void;
  /** Subscribes to one type, or to every event with "*". Returns the unsubscribe function. */
  subscribe<T extends DomainEventType>(type: T, handler: Handler<EventOf<T>>): () => void;
  subscribe(type: "*", handler: Handler): () => void;
  /** Resolves when every handler started so far has finished (tests, graceful shutdown). */
  drain(): Promise<void>;
}

const buses = new WeakMap<Db, EventBus>();

/** The event bus of database `db` (one per handle, created on first use). */
export function eventBus(db: Db): EventBus {
  let bus = buses.get(db);
  if (!bus) buses.set(db, (bus = createEventBus(db)));
  return bus;
}

function createEventBus(db: Db): EventBus {
  const handlers = new Map<string, Set<Handler>>();
  const pending = new Set<Promise<void>>();

  const run = (handler: Handler, event: DomainEvent) => {
    const job = Promise.resolve()
      .then(() => handler(event, db))
      .catch((error: unknown) => logger.error({ err: error, event: event.type }, `event handler for ${event.type} failed`))
      .finally(() => pending.delete(job));
    pending.add(job);
  };

  return {
    publish(event) {
      for (const key of [event.type, "*"]) {
        for (const handler of handlers.get(key) ?? []) run(handler, event);
      }
    },
    subscribe(type: string, handler: Handler<never>) {
      const set = handlers.get(type) ?? new Set();
      handlers.set(type, set);
      set.add(handler as Handler);
      return () => set.delete(handler as Handler);
    },
    async drain() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
