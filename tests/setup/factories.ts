/** Test data builders: members and posts with unique, readable values. */
import type { Db } from "~/db/client.server";
import { registerUser, type UserRow } from "~/domain/users/users.server";

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
