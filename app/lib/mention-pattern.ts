/**
 * The one spelling of an `@username` mention (issue 13 item 9), shared by the Markdown renderer
 * (app/lib/markdown.server.ts: posts, comments, wall, and who is notified) and plain-text messages
 * (app/domain/mentions/plain-text.ts), so a name links and notifies by the same rule everywhere.
 * Pure: the browser uses it too.
 */

/** A username: 3–32 Latin or Cyrillic letters, digits or `_` (users_username_format). */
const NAME = "[A-Za-z0-9_А-Яа-яЁё]{3,32}";
/** What may not follow: a word character, or `-`/`.` and one (`@ivan-petrov` is not @ivan). */
const END = "(?![\\p{L}\\p{N}_]|[-.][\\p{L}\\p{N}_])";
/** What may not come just before the `@`: a word character, `@` or `.` (`text@admin`, e-mail addresses). */
export const MENTION_GLUE = /[\p{L}\p{N}_@.]$/u;

/** A mention at the start of the text; group 1 is the name. */
export const MENTION_AT_START = new RegExp(`^@(${NAME})${END}`, "u");

/** Every mention in a text, not glued to what comes before; group 1 is the name. Global: use with matchAll. */
export const MENTIONS_IN_TEXT = new RegExp(`(?<![\\p{L}\\p{N}_@.])@(${NAME})${END}`, "gu");
