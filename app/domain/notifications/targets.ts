/**
 * How a notification names its target (docs/product/notifications.md#targets): a post by its
 * title, a comment, wall entry or message by a short excerpt. Pure, shared by the server's
 * mapper and the browser (toasts and the header's dropdown).
 */
import { stripMarkdownFragment } from "~/domain/search/highlight";
import type { NotificationTargetDto } from "./types";

/** Code points of a target's excerpt, the ellipsis included. */
export const TARGET_EXCERPT_LENGTH = 80;

/** Characters of a body the database hands over for an excerpt (enough for any Markdown around 80 visible ones). */
export const TARGET_BODY_PREFIX = 400;

/**
 * `body` (Markdown or plain text) as one readable line of at most TARGET_EXCERPT_LENGTH code
 * points, ending in «…» when cut — never splitting an emoji. Empty for a body with no text.
 */
export function targetExcerpt(body: string): string {
  const flat = stripMarkdownFragment(body);
  const chars = [...flat];
  if (chars.length <= TARGET_EXCERPT_LENGTH) return flat;
  return `${chars
    .slice(0, TARGET_EXCERPT_LENGTH - 1)
    .join("")
    .trimEnd()}…`;
}

const GONE: Record<NotificationTargetDto["kind"], string> = {
  post: "Пост удалён или скрыт",
  comment: "Комментарий удалён или скрыт",
  wall_post: "Запись удалена или скрыта",
  message: "Сообщение удалено или скрыто",
};

const NOUN: Record<NotificationTargetDto["kind"], string> = {
  post: "Пост",
  comment: "Комментарий",
  wall_post: "Запись",
  message: "Сообщение",
};

/**
 * One Russian line naming the target: «Пост «Как проверить продавца»», «Комментарий «Спасибо,
 * всё дошло…» к посту «Как проверить продавца»», «Запись «…»», «Сообщение «…»», or «Пост удалён
 * или скрыт» when it is gone. Null without a target.
 */
export function describeTarget(target: NotificationTargetDto | null): string | null {
  if (!target) return null;
  if (target.text === null) return GONE[target.kind];
  const text = `${NOUN[target.kind]} «${target.text}»`;
  return target.kind === "comment" && target.postTitle ? `${text} к посту «${target.postTitle}»` : text;
}
