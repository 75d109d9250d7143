/**
 * The quote of a replied-to message (MessageDto.replyTo.excerpt), shared by the server's mapper
 * and the browser, which re-quotes a message edited live: both cut it the same way.
 */

/** Characters (code points) of a quoted message shown in a reply, the ellipsis included. */
export const REPLY_EXCERPT_LENGTH = 100;

/** What a quote or the conversation list shows of a message holding only a picture (issue 14). */
export const IMAGE_EXCERPT = "Изображение";

/**
 * `body` on one line (runs of whitespace become one space), cut to REPLY_EXCERPT_LENGTH code
 * points with «…» as the last one when longer — so an emoji is never split in half.
 */
export function excerptOf(body: string): string {
  const flat = body.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= REPLY_EXCERPT_LENGTH ? flat : `${chars.slice(0, REPLY_EXCERPT_LENGTH - 1).join("")}…`;
}

/** The excerpt of a message: its text (see excerptOf), or «Изображение» when it holds only a picture. */
export function messageExcerpt(body: string, hasImage: boolean): string {
  const text = excerptOf(body);
  return text === "" && hasImage ? IMAGE_EXCERPT : text;
}
