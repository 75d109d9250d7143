/** The post editor's live preview (docs/product/content.md#post-editor). */
import type { Db } from "~/db/client.server";
import { renderMarkdown } from "~/lib/markdown.server";
import { resolveMentions } from "../mentions/mentions.server";
import { BODY_MAX } from "./schemas";

/**
 * `body` rendered exactly as the published post will be: the same Markdown rules, sanitiser and
 * mention links (toPostDto). A body over BODY_MAX characters is cut there, as the editor refuses it anyway.
 * Returns `{html}`, safe to put into the page as is.
 */
export async function previewPostBody(db: Db, body: string): Promise<{ html: string }> {
  const text = body.slice(0, BODY_MAX);
  return { html: renderMarkdown(text, await resolveMentions(db, [text])) };
}
