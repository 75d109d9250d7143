/**
 * What a post page's data carries of each comment (commentsForPage; decision 0036): the flags only
 * when true, the Markdown only where the viewer may edit, `editedAt` only once edited, the author
 * without a display name — and everything a comment shows unchanged.
 */
import { describe, expect, it } from "vitest";
import { commentsForPage, type CommentDto } from "./comments.server";

const author = { id: 7, username: "ivan", displayName: "Иван Петров", image: null, ranks: [] };

function comment(overrides: Partial<CommentDto>): CommentDto {
  return {
    id: 1,
    postId: 10,
    parentId: null,
    replyTo: null,
    author,
    body: "**Привет**",
    html: "<p><strong>Привет</strong></p>\n",
    deleted: false,
    moderated: false,
    hidden: false,
    createdAt: "2026-12-02T01:00:00.000Z",
    editedAt: null,
    likeCount: 3,
    liked: false,
    canEdit: false,
    canDelete: false,
    replies: [],
    ...overrides,
  };
}

describe("commentsForPage", () => {
  it("leaves out what is false or empty on a comment another member wrote, and keeps what it shows", () => {
    const [page] = commentsForPage([comment({})]);
    expect(page).toEqual({
      id: 1,
      postId: 10,
      parentId: null,
      replyTo: null,
      author: { id: 7, username: "ivan", image: null, ranks: [] },
      html: "<p><strong>Привет</strong></p>\n",
      createdAt: "2026-12-02T01:00:00.000Z",
      likeCount: 3,
      replies: [],
    });
  });

  it("keeps the true flags, the edit time and, on the viewer's own comment, the Markdown; replies likewise", () => {
    const reply = comment({ id: 2, parentId: 1, replyTo: { commentId: 1, author: { id: 7, username: "ivan" } }, liked: true, hidden: true });
    const [own] = commentsForPage([comment({ canEdit: true, canDelete: true, editedAt: "2026-12-02T02:00:00.000Z", replies: [reply] })]);
    expect(own).toMatchObject({ canEdit: true, canDelete: true, body: "**Привет**", editedAt: "2026-12-02T02:00:00.000Z" });
    expect(own).not.toHaveProperty("liked");
    expect(own!.replies[0]).toMatchObject({ id: 2, liked: true, hidden: true, replyTo: { commentId: 1 } });
    expect(own!.replies[0]).not.toHaveProperty("body");
    expect(own!.replies[0]!.author).not.toHaveProperty("displayName");
  });

  it("keeps a deleted comment's flags and its null text, which the page shows as «Комментарий удалён»", () => {
    const [gone] = commentsForPage([comment({ deleted: true, moderated: true, html: null, body: null })]);
    expect(gone).toMatchObject({ deleted: true, moderated: true, html: null });
    expect(gone).not.toHaveProperty("body");
  });
});
