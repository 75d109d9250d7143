/**
 * Notifications of the demo community (issue 4): the seeded history was written straight into
 * the tables, so no events fired; this gives the demo and admin accounts the notifications that
 * history would have produced — grouped likes on their posts, comments under them, wall entries
 * and mentions in the public conversation — the newest few unread, the rest read.
 */
import { and, desc, eq, inArray, like, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { comments, conversations, messages, notifications, postLikes, posts, users, wallPosts } from "~/db/schema";
import { recordLike } from "~/domain/notifications/likes.server";
import { createNotifications, type NewNotification } from "~/domain/notifications/notifications.server";

/** Unread ones left per member: enough to show the bell's badge and the unread style. */
const UNREAD_PER_MEMBER = 4;

/** Creates the notifications of `usernames` (default demo and admin); returns how many exist after. */
export async function seedNotifications(db: Db, usernames: readonly string[] = ["demo", "admin"]): Promise<number> {
  const members = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, [...usernames]));
  for (const member of members) {
    const ownPosts = await db.select({ id: posts.id }).from(posts).where(eq(posts.authorId, member.id)).orderBy(desc(posts.createdAt)).limit(5);
    const postIds = ownPosts.map((post) => post.id);

    // Grouped likes, oldest liker first so the newest ends up as the sender.
    if (postIds.length > 0) {
      const likes = await db
        .select({ postId: postLikes.postId, likerId: postLikes.userId })
        .from(postLikes)
        .where(inArray(postLikes.postId, postIds))
        .orderBy(postLikes.createdAt)
        .limit(40);
      for (const row of likes) {
        await recordLike(db, { target: "post", targetId: row.postId, likerId: row.likerId, receiverId: member.id, postId: row.postId });
      }
    }

    const items: NewNotification[] = [];
    if (postIds.length > 0) {
      const commentRows = await db
        .select({ id: comments.id, postId: comments.postId, authorId: comments.authorId })
        .from(comments)
        .where(and(inArray(comments.postId, postIds), ne(comments.authorId, member.id), sql`${comments.parentId} is null`))
        .orderBy(desc(comments.createdAt))
        .limit(6);
      for (const comment of commentRows) {
        items.push({
          recipientId: member.id,
          type: "POST_COMMENT_NEW",
          senderId: comment.authorId,
          postId: comment.postId,
          commentId: comment.id,
          groupKey: `comment:${comment.id}`,
        });
      }
    }
    const wallRows = await db
      .select({ id: wallPosts.id, authorId: wallPosts.authorId })
      .from(wallPosts)
      .where(and(eq(wallPosts.ownerId, member.id), ne(wallPosts.authorId, member.id)))
      .orderBy(desc(wallPosts.createdAt))
      .limit(3);
    for (const entry of wallRows) {
      items.push({ recipientId: member.id, type: "WALL_POST_NEW", senderId: entry.authorId, wallPostId: entry.id, groupKey: `wall_post:${entry.id}` });
    }
    const mentions = await db
      .select({ id: messages.id, conversationId: messages.conversationId, authorId: messages.authorId })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(eq(conversations.kind, "public"), like(messages.body, `%@${member.username}%`), ne(messages.authorId, member.id)));
    for (const message of mentions) {
      items.push({
        recipientId: member.id,
        type: "PUBLIC_CONVERSATION_MESSAGE_MENTION",
        senderId: message.authorId,
        conversationId: message.conversationId,
        messageId: message.id,
        groupKey: `message:${message.id}`,
      });
    }
    await createNotifications(db, items);

    // The newest few stay unread; the rest look already seen.
    await db.execute(sql`
      update ${notifications} set read_at = now()
      where ${notifications.recipientId} = ${member.id}
        and ${notifications.id} not in (
          select id from ${notifications} where ${notifications.recipientId} = ${member.id}
          order by ${notifications.updatedAt} desc, ${notifications.id} desc limit ${UNREAD_PER_MEMBER}
        )`);
  }
  const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(notifications);
  return row?.total ?? 0;
}
