import { describe, expect, it } from "vitest";
import { applyEdit, insertBlock, markdownEdit, type MarkdownAction, type TextSelection } from "./markdown-edits";

/** Text with the selection written in: «[» starts it and «]» ends it, «|» is a cursor. */
function parse(marked: string): TextSelection {
  const cursor = marked.indexOf("|");
  if (cursor !== -1) return { value: marked.replace("|", ""), start: cursor, end: cursor };
  const start = marked.indexOf("[");
  const end = marked.indexOf("]") - 1;
  return { value: marked.replace("[", "").replace("]", ""), start, end };
}

function show({ value, start, end }: TextSelection): string {
  if (start === end) return `${value.slice(0, start)}|${value.slice(start)}`;
  return `${value.slice(0, start)}[${value.slice(start, end)}]${value.slice(end)}`;
}

const run = (marked: string, action: MarkdownAction) => {
  const state = parse(marked);
  return show(applyEdit(state.value, markdownEdit(state, action)));
};

describe("the toolbar's Markdown edits", () => {
  it("bold wraps the selection and keeps it selected; again unwraps it", () => {
    expect(run("Цена [2500] рублей", "bold")).toBe("Цена **[2500]** рублей");
    expect(run("Цена **[2500]** рублей", "bold")).toBe("Цена [2500] рублей");
    expect(run("Цена [**2500**] рублей", "bold")).toBe("Цена [2500] рублей");
  });

  it("bold on an empty selection inserts a placeholder, selected, so typing replaces it", () => {
    expect(run("Цена |", "bold")).toBe("Цена **[жирный текст]**");
  });

  it("spaces around the selection stay outside the marks", () => {
    expect(run("Цена[ 2500 ]рублей", "bold")).toBe("Цена **[2500]** рублей");
  });

  it("italic uses single stars and toggles, telling them from bold", () => {
    expect(run("очень [важно]", "italic")).toBe("очень *[важно]*");
    expect(run("очень *[важно]*", "italic")).toBe("очень [важно]");
    expect(run("очень [*важно*]", "italic")).toBe("очень [важно]");
    expect(run("|", "italic")).toBe("*[курсив]*");
    // Inside bold, italic adds its own stars; bold around italic likewise.
    expect(run("**[важно]**", "italic")).toBe("***[важно]***");
    expect(run("***[важно]***", "italic")).toBe("**[важно]**");
    expect(run("*[важно]*", "bold")).toBe("***[важно]***");
  });

  it("code is inline within a line and a fenced block over several lines", () => {
    expect(run("запустите [npm test] сейчас", "code")).toBe("запустите `[npm test]` сейчас");
    expect(run("До:\n[a = 1\nb = 2]\nПосле", "code")).toBe("До:\n```\n[a = 1\nb = 2]\n```\nПосле");
    expect(run("До: [a = 1\nb = 2]", "code")).toBe("До: \n```\n[a = 1\nb = 2]\n```");
  });

  it("heading, quote and list prefix the current line, keeping the cursor in its text", () => {
    expect(run("Описание|", "heading")).toBe("## Описание|");
    expect(run("# Опи|сание", "heading")).toBe("## Опи|сание");
    expect(run("## Опи|сание", "heading")).toBe("Опи|сание");
    expect(run("- пун|кт", "heading")).toBe("## пун|кт");
    expect(run("Первая\nвто|рая", "quote")).toBe("Первая\n> вто|рая");
    expect(run("|", "list")).toBe("- |");
  });

  it("a list over several lines prefixes every non-empty line, and a second click takes them away", () => {
    expect(run("[яблоки\n\nгруши]", "list")).toBe("[- яблоки\n\n- груши]");
    expect(run("[- яблоки\n- груши]", "list")).toBe("[яблоки\nгруши]");
    expect(run("[* яблоки\nгруши]", "list")).toBe("[- яблоки\n- груши]");
  });

  it("a selection ending at a line break leaves the next line alone", () => {
    expect(run("[один\n]два", "quote")).toBe("> [один\n]два");
  });

  it("a link makes the selection its label and selects the address to type", () => {
    expect(run("см. [сайт]", "link")).toBe("см. [сайт]([https://])");
    expect(run("см. |", "link")).toBe("см. [[текст ссылки]](https://)");
    expect(run("см. [https://example.com/a]", "link")).toBe("см. [[текст ссылки]](https://example.com/a)");
  });

  it("an image takes a selected address, or a description with the address to type", () => {
    expect(run("[/uploads/posts/1/a.webp]", "image")).toBe("![|](/uploads/posts/1/a.webp)");
    expect(run("[скриншот]", "image")).toBe("![скриншот]([https://])");
    expect(run("|", "image")).toBe("![]([https://])");
  });
});

describe("insertBlock (uploaded pictures)", () => {
  it("puts the picture on a line of its own and the cursor after it", () => {
    const state = parse("Текст| дальше");
    expect(show(applyEdit(state.value, insertBlock(state, "![](/u.webp)")))).toBe("Текст\n![](/u.webp)|\n дальше");
    const empty = parse("|");
    expect(show(applyEdit(empty.value, insertBlock(empty, "![](/u.webp)")))).toBe("![](/u.webp)|");
  });
});
