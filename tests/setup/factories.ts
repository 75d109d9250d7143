/** Test data builders: members and posts with unique, readable values. */
import type { Db } from "~/db/client.server";
import { posts } from "~/db/schema";
import { registerUser, type UserRow } from "~/domain/users/users.server";
import { openSession } from "~/lib/session.server";

let counter = 0;

export async function makeUser(db: Db, overrides: { username?: string; email?: string; password?: string } = {}): Promise<UserRow> {
  counter += 1;
  const username = overrides.username ?? `member_${counter}_${Math.random().toString(36).slice(2, 7)}`;
  return registerUser(db, {
    username,
    email: overrides.email ?? `${username.toLowerCase()}@example.test`,
    password: overrides.password ?? "correct horse battery",
  });
}

/** A member signed in on one device: makeUser plus a session, with that session's id and realtime apiToken. */
export async function makeMember(
  db: Db,
  overrides: { username?: string; email?: string; password?: string } = {},
): Promise<UserRow & { sessionId: string; apiToken: string }> {
  const user = await makeUser(db, overrides);
  return { ...user, ...(await openSession(db, user.id, { method: "password" })) };
}

/**
 * A post written straight into the table by `author` (publishing through createPost has
 * its own 30 s limit, tested in the posts suite). Returns the post id.
 */
export async function makePost(db: Db, author: Pick<UserRow, "id">, title = "Продам аккаунт Steam", categoryId = 7): Promise<number> {
  const [row] = await db.insert(posts).values({ authorId: author.id, title, body: "Текст поста", categoryId }).returning({ id: posts.id });
  return row!.id;
}
