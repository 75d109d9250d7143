import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import { toggleBookmark } from "../bookmarks/bookmarks.server";
import { toggleLike } from "../likes/likes.server";
import { getPostEngagement } from "./engagement.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

describe(`engagement on ${engine}`, () => {
  it("tells a member whether they liked and bookmarked a post; a visitor neither", async () => {
    const author = await makeUser(t.db);
    const reader = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    expect(await getPostEngagement(t.db, reader.id, postId)).toEqual({ liked: false, bookmarked: false });
    await toggleLike(t.db, reader, "post", postId);
    expect(await getPostEngagement(t.db, reader.id, postId)).toEqual({ liked: true, bookmarked: false });
    await toggleBookmark(t.db, reader, postId);
    expect(await getPostEngagement(t.db, reader.id, postId)).toEqual({ liked: true, bookmarked: true });
    expect(await getPostEngagement(t.db, author.id, postId)).toEqual({ liked: false, bookmarked: false });
    expect(await getPostEngagement(t.db, null, postId)).toEqual({ liked: false, bookmarked: false });
  });
});
