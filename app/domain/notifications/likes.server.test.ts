import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inboxOf, listenNotifications, publishPost } from "../../../tests/setup/domain";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { notifications, postLikes } from "~/db/schema";
import { eventBus } from "~/lib/events.server";
import { createComment } from "../comments/write.server";
import { setLike, toggleLike } from "../likes/likes.server";
import { blockMember } from "../people/blocks.server";
import type { UserRow } from "../users/users.server";
import { createWallPost } from "../wall/wall.server";
import { recordLike } from "./likes.server";
import { countUnreadNotifications, markAllNotificationsRead } from "./notifications.server";
import { registerNotificationRules } from "./subscribers.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  registerNotificationRules(t.db);
});
afterAll(async () => {
  await t.destroy();
});

const settle = () => eventBus(t.db).drain();

async function comment(author: UserRow, postId: number, body: string) {
  const created = await createComment(t.db, author, postId, { body });
  await settle();
  return created.id!;
}

describe(`grouped likes on ${engine}`, () => {
  async function like(liker: UserRow, target: "post" | "comment" | "wall_post", id: number, liked = true) {
    await setLike(t.db, liker, target, id, liked);
    await settle();
  }

  it("one row per liked item: a new liker rises to the top, becomes the sender and makes it unread again", async () => {
    const author = await makeUser(t.db);
    const [ivan, olga, petr, other] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, author);
    const live = listenNotifications(t.db, author);

    await like(ivan, "post", postId);
    const [first] = await inboxOf(t.db, author);
    expect(first).toMatchObject({ type: "POST_LIKE", title: `${ivan.username} оценил(а) ваш пост`, url: `/post/${postId}`, actorCount: 1, read: false });
    await markAllNotificationsRead(t.db, author.id);

    // Something newer in between, then a new liker: the like rises above it, unread again.
    await comment(other, postId, "Беру!");
    await like(olga, "post", postId);
    await like(petr, "post", postId);
    const inbox = await inboxOf(t.db, author);
    expect(inbox.map((n) => n.type)).toEqual(["POST_LIKE", "POST_COMMENT_NEW"]);
    expect(inbox[0]).toMatchObject({
      id: first!.id,
      senderId: petr.id,
      title: `${petr.username} и ещё 2 оценили ваш пост`,
      actorCount: 3,
      read: false,
    });
    expect(Date.parse(inbox[0]!.updatedAt)).toBeGreaterThan(Date.parse(first!.updatedAt));
    await vi.waitFor(() =>
      expect(live.map((n) => n.title)).toEqual([
        `${ivan.username} оценил(а) ваш пост`,
        `${other.username} оставил(а) комментарий под вашим постом`,
        `${olga.username} и ещё 1 оценили ваш пост`,
        `${petr.username} и ещё 2 оценили ваш пост`,
      ]),
    );
  });

  it("a live frame raises the unread count only when the group became unread: created, or read before", async () => {
    const author = await makeUser(t.db);
    const [ivan, olga, petr, other] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, author);
    const live = listenNotifications(t.db, author);

    await like(ivan, "post", postId);
    await comment(other, postId, "Беру!");
    // Olga joins a group that is still unread: the count the browser keeps must not rise again.
    await like(olga, "post", postId);
    expect(await countUnreadNotifications(t.db, author.id)).toBe(2);
    await markAllNotificationsRead(t.db, author.id);
    // Petr's like makes the read group unread again: that raises it.
    await like(petr, "post", postId);
    expect(await countUnreadNotifications(t.db, author.id)).toBe(1);

    await vi.waitFor(() => expect(live).toHaveLength(4));
    expect(live.map((n) => [n.type, n.raisesUnread])).toEqual([
      ["POST_LIKE", true],
      ["POST_COMMENT_NEW", true],
      ["POST_LIKE", false],
      ["POST_LIKE", true],
    ]);
    // The browser's count follows the frames: 1 + 1 + 0, read, + 1 — as the server counts.
    expect(live.filter((n) => n.raisesUnread !== false).length - 2).toBe(await countUnreadNotifications(t.db, author.id));
    // The stored list has no such field: it describes a delivery, not the notification.
    expect((await inboxOf(t.db, author))[0]).not.toHaveProperty("raisesUnread");
  });

  it("recordLike says whether the group became unread", async () => {
    const author = await makeUser(t.db);
    const [ivan, olga, petr] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, author);
    // The like rows written straight into the table: no event, so only this call records them.
    const record = async (liker: UserRow) => {
      await t.db.insert(postLikes).values({ postId, userId: liker.id, receiverId: author.id });
      return recordLike(t.db, { target: "post", targetId: postId, likerId: liker.id, receiverId: author.id, postId });
    };
    expect(await record(ivan)).toMatchObject({ actorCount: 1, read: false, raisesUnread: true });
    expect(await record(olga)).toMatchObject({ actorCount: 2, read: false, raisesUnread: false });
    await markAllNotificationsRead(t.db, author.id);
    expect(await record(petr)).toMatchObject({ actorCount: 3, read: false, raisesUnread: true });
  });

  it("likes arriving at once all land in the one group", async () => {
    const author = await makeUser(t.db);
    const likers = await Promise.all(Array.from({ length: 8 }, () => makeUser(t.db)));
    const postId = await publishPost(t.db, author);
    const live = listenNotifications(t.db, author);
    await Promise.all(likers.map((liker) => setLike(t.db, liker, "post", postId, true)));
    await settle();
    const inbox = await inboxOf(t.db, author);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ type: "POST_LIKE", actorCount: 8, read: false });
    // One unread row, so one frame of the eight raises the browser's count.
    await vi.waitFor(() => expect(live).toHaveLength(8));
    expect(live.filter((n) => n.raisesUnread).length).toBe(await countUnreadNotifications(t.db, author.id));
    const [row] = await t.db.select({ actorIds: notifications.actorIds }).from(notifications).where(eq(notifications.id, inbox[0]!.id!));
    expect([...row!.actorIds].sort((a, b) => a - b)).toEqual(likers.map((l) => l.id).sort((a, b) => a - b));
  });

  it("a like taken back leaves the group without making it unread; the last one deletes it", async () => {
    const author = await makeUser(t.db);
    const [ivan, olga] = [await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, author);
    await like(ivan, "post", postId);
    await like(olga, "post", postId);
    await markAllNotificationsRead(t.db, author.id);
    const [before] = await inboxOf(t.db, author);

    await like(olga, "post", postId, false);
    const [after] = await inboxOf(t.db, author);
    expect(after).toMatchObject({ id: before!.id, senderId: ivan.id, title: `${ivan.username} оценил(а) ваш пост`, actorCount: 1, read: true });
    expect(after!.updatedAt).toBe(before!.updatedAt);
    expect(await countUnreadNotifications(t.db, author.id)).toBe(0);

    await like(ivan, "post", postId, false);
    expect(await inboxOf(t.db, author)).toEqual([]);

    // Liking again later is a liker arriving (as in Forem): the author hears of it again.
    await like(ivan, "post", postId);
    expect(await inboxOf(t.db, author)).toMatchObject([{ senderId: ivan.id, actorCount: 1, read: false }]);
  });

  it("a liker already counted changes nothing, and a like already taken back notifies no one", async () => {
    const author = await makeUser(t.db);
    const [ivan, olga] = [await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, author);
    await like(ivan, "post", postId);
    await markAllNotificationsRead(t.db, author.id);

    // The same like.created handled again (a retry): still read, still one actor.
    expect(await recordLike(t.db, { target: "post", targetId: postId, likerId: ivan.id, receiverId: author.id, postId })).toBeNull();
    expect(await inboxOf(t.db, author)).toMatchObject([{ actorCount: 1, read: true }]);

    // Olga likes and takes it back while the handlers run: the group ends as the likes table says.
    await toggleLike(t.db, olga, "post", postId);
    await toggleLike(t.db, olga, "post", postId);
    await settle();
    expect(await inboxOf(t.db, author)).toMatchObject([{ senderId: ivan.id, actorCount: 1 }]);

    // A like.created handled after the like was taken back changes nothing, not even the read state.
    await markAllNotificationsRead(t.db, author.id);
    expect(await recordLike(t.db, { target: "post", targetId: postId, likerId: olga.id, receiverId: author.id, postId })).toBeNull();
    expect(await inboxOf(t.db, author)).toMatchObject([{ senderId: ivan.id, actorCount: 1, read: true }]);
  });

  it("comments and wall entries group their likes too, with their own texts and links", async () => {
    const [author, commenter, owner, fan1, fan2] = [
      await makeUser(t.db),
      await makeUser(t.db),
      await makeUser(t.db),
      await makeUser(t.db),
      await makeUser(t.db),
    ];
    const postId = await publishPost(t.db, author);
    const commentId = await comment(commenter, postId, "Отличная цена");
    await like(fan1, "comment", commentId);
    await like(fan2, "comment", commentId);
    expect(await inboxOf(t.db, commenter)).toMatchObject([
      {
        type: "POST_COMMENT_LIKE",
        title: `${fan2.username} и ещё 1 оценили ваш комментарий`,
        url: `/post/${postId}#comment-${commentId}`,
        comment: { id: commentId, postId },
        actorCount: 2,
      },
    ]);

    const entry = await createWallPost(t.db, owner, owner.id, { body: "Моя стена" });
    await like(fan1, "wall_post", entry.id);
    expect(await inboxOf(t.db, owner)).toMatchObject([
      { type: "WALL_POST_LIKE", title: `${fan1.username} оценил(а) вашу запись`, url: `/profile/${fan1.id}`, wallPostId: entry.id },
    ]);
    await like(fan2, "wall_post", entry.id);
    expect((await inboxOf(t.db, owner))[0]!.title).toBe(`${fan2.username} и ещё 1 оценили вашу запись`);
  });

  it("no like notification from a member the author blocked", async () => {
    const [author, blockedOne] = [await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, author);
    await blockMember(t.db, author, blockedOne.id);
    await like(blockedOne, "post", postId);
    expect(await inboxOf(t.db, author)).toEqual([]);
  });
});
