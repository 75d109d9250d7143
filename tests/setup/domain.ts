/**
 * Helpers shared by the domain suites of conversations and notifications: events seen while
 * something runs, a group with members, a member's notifications stored and live, a post
 * published through the real domain function (so its events fire).
 */
import type { Db } from "~/db/client.server";
import { createGroupConversation, inviteToGroup } from "~/domain/conversations/conversations.server";
import type { NotificationDto } from "~/domain/notifications/types";
import { listNotifications } from "~/domain/notifications/notifications.server";
import { createPost } from "~/domain/posts/posts.server";
import { PostInputSchema } from "~/domain/posts/schemas";
import type { UserRow } from "~/domain/users/users.server";
import { eventBus, type DomainEvent } from "~/lib/events.server";
import { realtimeHub } from "~/lib/realtime/hub.server";

/** Events of `type` published while `run` runs, collected after the bus drained. */
export async function eventsDuring<T extends DomainEvent["type"]>(db: Db, type: T, run: () => Promise<unknown>): Promise<Extract<DomainEvent, { type: T }>[]> {
  const seen: Extract<DomainEvent, { type: T }>[] = [];
  const off = eventBus(db).subscribe(type, (event) => void seen.push(event));
  try {
    await run();
    await eventBus(db).drain();
  } finally {
    off();
  }
  return seen;
}

/** A group conversation owned by `owner` with `members` invited. */
export async function groupWith(db: Db, owner: UserRow, members: UserRow[], name = "Обмен скинами") {
  const group = await createGroupConversation(db, owner.id, { name });
  for (const member of members) await inviteToGroup(db, owner.id, group.id, member.username);
  return group;
}

/** Every stored notification of `user`, newest first. */
export async function inboxOf(db: Db, user: UserRow): Promise<NotificationDto[]> {
  return (await listNotifications(db, user.id, { page: 1, perPage: 50 })).items;
}

/** Collects the live frames on `user`'s notifications channel from now on. */
export function listenNotifications(db: Db, user: UserRow): NotificationDto[] {
  const frames: NotificationDto[] = [];
  realtimeHub(db).subscribe({ userId: user.id, send: (frame) => void frames.push(frame.data as NotificationDto), revoke() {} }, { kind: "notifications" });
  return frames;
}

/** Publishes a post through createPost (its events fire) and waits for the subscribers; returns its id. */
export async function publishPost(db: Db, author: UserRow, body = "Текст поста", title = "Продам аккаунт"): Promise<number> {
  const post = await createPost(db, author, PostInputSchema.parse({ title, body, categoryId: 7 }));
  await eventBus(db).drain();
  return post.id;
}
