/**
 * Mentions in plain text (chat messages, docs/product/conversations.md#public-conversation): the
 * server resolves the names a message mentions (markdownMentions, the rule that decides who is
 * notified) and sends them with the message; the reader's page cuts the text into plain pieces and
 * links. Pure, so the browser and the server share it; React escapes every piece, so a message can
 * never inject markup.
 */
import { MENTIONS_IN_TEXT } from "~/lib/mention-pattern";

/** A member a message mentions: the profile its `@username` links to. */
export interface MentionRefDto {
  id: number;
  username: string;
}

/** A piece of a message's text: plain text, or a mention linking to member `id`'s profile. */
export type TextSegment = { text: string } | { text: string; mention: MentionRefDto };

/**
 * `text` as segments, in order, joining back to `text`: each `@username` whose name (any case) is
 * among `mentions` is a mention segment; everything else, including unknown names, stays text.
 */
export function mentionSegments(text: string, mentions: readonly MentionRefDto[]): TextSegment[] {
  if (mentions.length === 0 || !text.includes("@")) return text === "" ? [] : [{ text }];
  const byName = new Map(mentions.map((member) => [member.username.toLowerCase(), member]));
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(MENTIONS_IN_TEXT)) {
    const member = byName.get(match[1]!.toLowerCase());
    if (!member) continue;
    if (match.index > last) segments.push({ text: text.slice(last, match.index) });
    segments.push({ text: match[0], mention: member });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}
