/**
 * The post editor's Markdown toolbar as pure text edits (docs/product/content.md#post-editor): each
 * action takes the text and the selection and returns one replacement plus the selection after
 * it, so the editor can apply it as a single undoable input.
 */

/** A textarea's text and selection (UTF-16 offsets, as the DOM gives them). */
export interface TextSelection {
  value: string;
  start: number;
  end: number;
}

/** Replace `value.slice(from, to)` with `insert`, then select `selectionStart`…`selectionEnd` (offsets in the new text). */
export interface TextEdit {
  from: number;
  to: number;
  insert: string;
  selectionStart: number;
  selectionEnd: number;
}

export type MarkdownAction = "bold" | "italic" | "heading" | "quote" | "code" | "link" | "list" | "image";

/** What an empty selection is filled with, selected so that typing replaces it. */
export const PLACEHOLDERS = {
  bold: "жирный текст",
  italic: "курсив",
  code: "код",
  link: "текст ссылки",
  image: "описание",
  url: "https://",
} as const;

/** The text after applying `edit` to `value`, with the selection the edit asks for. */
export function applyEdit(value: string, edit: TextEdit): TextSelection {
  return { value: value.slice(0, edit.from) + edit.insert + value.slice(edit.to), start: edit.selectionStart, end: edit.selectionEnd };
}

/** How many `*` end `text` and how many start `rest`, to tell italic `*` from bold `**` around a selection. */
function stars(text: string, rest: string): [number, number] {
  return [/\**$/.exec(text)![0].length, /^\**/.exec(rest)![0].length];
}

/** Whether `before`…`after` hold `mark` right around the selection: `*` only as italic (an odd run), `**` as bold. */
function markedAround(before: string, after: string, mark: string): boolean {
  if (mark === "*") {
    const [left, right] = stars(before, after);
    return left % 2 === 1 && right % 2 === 1;
  }
  return before.endsWith(mark) && after.startsWith(mark);
}

/** Wraps the selection in `mark` (or unwraps it when it is already wrapped); an empty one gets `placeholder`, selected. */
function wrap({ value, start, end }: TextSelection, mark: string, placeholder: string): TextEdit {
  const selected = value.slice(start, end);
  if (markedAround(value.slice(0, start), value.slice(end), mark)) {
    return { from: start - mark.length, to: end + mark.length, insert: selected, selectionStart: start - mark.length, selectionEnd: end - mark.length };
  }
  if (selected.length > mark.length * 2 && markedAround(selected.slice(0, mark.length), selected.slice(-mark.length), mark)) {
    const inner = selected.slice(mark.length, -mark.length);
    return { from: start, to: end, insert: inner, selectionStart: start, selectionEnd: start + inner.length };
  }
  // Spaces around the selection stay outside the marks: «** текст**» is not bold in Markdown.
  const lead = /^\s*/.exec(selected)![0];
  const trail = selected.trimStart().length === 0 ? "" : /\s*$/.exec(selected)![0];
  const core = selected.slice(lead.length, selected.length - trail.length) || placeholder;
  const from = start + lead.length;
  return {
    from,
    to: end - trail.length,
    insert: `${mark}${core}${mark}`,
    selectionStart: from + mark.length,
    selectionEnd: from + mark.length + core.length,
  };
}

/** The start of the line holding `offset` and the end of the line holding `end`. */
function lineBounds(value: string, start: number, end: number): { from: number; to: number } {
  const from = value.lastIndexOf("\n", start - 1) + 1;
  // A selection ending right after a newline does not take in the next line.
  const last = end > start && value[end - 1] === "\n" ? end - 1 : end;
  const next = value.indexOf("\n", last);
  return { from, to: next === -1 ? value.length : next };
}

/**
 * Puts `prefix` before every line the selection touches (numbering nothing: "- ", "> ", "## "), or
 * takes it away when every non-empty line already has it. A heading replaces a shallower or deeper one.
 */
function prefixLines({ value, start, end }: TextSelection, prefix: string, existing: RegExp): TextEdit {
  const { from, to } = lineBounds(value, start, end);
  const lines = value.slice(from, to).split("\n");
  const filled = lines.filter((line) => line.trim() !== "");
  const remove = filled.length > 0 && filled.every((line) => line.startsWith(prefix));
  const changed = lines.map((line) => {
    if (remove) return line.startsWith(prefix) ? line.slice(prefix.length) : line;
    if (line.trim() === "" && lines.length > 1) return line;
    return prefix + line.replace(existing, "");
  });
  const insert = changed.join("\n");
  if (lines.length === 1) {
    // One line: the cursor keeps its place in the text, moved by what changed before it.
    const shift = insert.length - (to - from);
    return { from, to, insert, selectionStart: Math.max(from, start + shift), selectionEnd: Math.max(from, end + shift) };
  }
  return { from, to, insert, selectionStart: from, selectionEnd: from + insert.length };
}

const looksLikeUrl = (text: string) => /^(https?:\/\/|\/)\S+$/.test(text);

/** A link or an image: the selected text becomes the label (or the URL when it is one); the part left to fill in is selected. */
function linkLike({ value, start, end }: TextSelection, image: boolean): TextEdit {
  const selected = value.slice(start, end).trim();
  const bang = image ? "!" : "";
  if (looksLikeUrl(selected)) {
    const label = image ? "" : PLACEHOLDERS.link;
    const insert = `${bang}[${label}](${selected})`;
    const labelAt = start + bang.length + 1;
    return { from: start, to: end, insert, selectionStart: labelAt, selectionEnd: labelAt + label.length };
  }
  const label = selected || (image ? "" : PLACEHOLDERS.link);
  const insert = `${bang}[${label}](${PLACEHOLDERS.url})`;
  // A new link's label is selected when it was empty, else the address to type.
  if (!selected && !image) {
    const labelAt = start + 1;
    return { from: start, to: end, insert, selectionStart: labelAt, selectionEnd: labelAt + label.length };
  }
  const urlAt = start + bang.length + label.length + 3;
  return { from: start, to: end, insert, selectionStart: urlAt, selectionEnd: urlAt + PLACEHOLDERS.url.length };
}

/** Inline code for a selection within a line; a fenced block, on lines of its own, for several lines. */
function code(state: TextSelection): TextEdit {
  const { value, start, end } = state;
  const selected = value.slice(start, end);
  if (!selected.includes("\n")) return wrap(state, "`", PLACEHOLDERS.code);
  const before = start > 0 && value[start - 1] !== "\n" ? "\n" : "";
  const after = end < value.length && value[end] !== "\n" ? "\n" : "";
  const body = selected.replace(/\n$/, "");
  const insert = `${before}\`\`\`\n${body}\n\`\`\`${after}`;
  const bodyAt = start + before.length + 4;
  return { from: start, to: end, insert, selectionStart: bodyAt, selectionEnd: bodyAt + body.length };
}

/**
 * The edit for toolbar `action` on `state`: bold `**…**`, italic `*…*` (which, unlike `_`, works inside a word), inline code or a fenced
 * block, a link `[…](https://)`, an image `![…](https://)`, and per line a heading `## `, a quote
 * `> ` or a list item `- `. Bold, italic, code and the line prefixes toggle off when applied twice.
 */
export function markdownEdit(state: TextSelection, action: MarkdownAction): TextEdit {
  switch (action) {
    case "bold":
      return wrap(state, "**", PLACEHOLDERS.bold);
    case "italic":
      return wrap(state, "*", PLACEHOLDERS.italic);
    case "code":
      return code(state);
    case "link":
      return linkLike(state, false);
    case "image":
      return linkLike(state, true);
    case "heading":
      return prefixLines(state, "## ", /^(#{1,6}|[-*+]|>) /);
    case "quote":
      return prefixLines(state, "> ", /^$/);
    case "list":
      return prefixLines(state, "- ", /^[*+] /);
  }
}

/**
 * Inserts `text` at the selection (replacing it) as a block of its own — on a new line when the
 * cursor is inside a line — with the cursor after it. Used for uploaded pictures.
 */
export function insertBlock({ value, start, end }: TextSelection, text: string): TextEdit {
  const before = start > 0 && value[start - 1] !== "\n" ? "\n" : "";
  const after = end < value.length && value[end] !== "\n" ? "\n" : "";
  const insert = `${before}${text}${after}`;
  const caret = start + before.length + text.length;
  return { from: start, to: end, insert, selectionStart: caret, selectionEnd: caret };
}
