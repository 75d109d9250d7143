import { describe, expect, it } from "vitest";
import { escapeHtml, highlightToHtml, MATCH_START as S, MATCH_STOP as E, stripMarkdownFragment } from "./highlight";
import {
  foldLookalikes,
  looksLikeUsername,
  MAX_QUERY_LENGTH,
  normalizeQuery,
  parseSearchParams,
  searchBackgroundFor,
  searchBackgroundUrl,
  splitPrefix,
} from "./query";

describe("search backgrounds (docs/product/content.md#category-backgrounds)", () => {
  it("maps 1 and 5 to torgovlia, 2 and 3 to games, 4 and 9 to crypta, others to none", () => {
    const table = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9].map((id) => [id, searchBackgroundFor(id)]));
    expect(table).toEqual({ 1: "torgovlia", 2: "games", 3: "games", 4: "crypta", 5: "torgovlia", 6: null, 7: null, 8: null, 9: "crypta" });
    expect(searchBackgroundFor(undefined)).toBeNull();
    expect(searchBackgroundUrl("games")).toBe("/images/search/games.svg");
  });
});

describe("search query parsing", () => {
  it("reads q, category and the page, never throwing on bad input", () => {
    expect(parseSearchParams(new URLSearchParams("q=%20сделки%20%20через  гаранта&category=5&page=2"))).toEqual({
      q: "сделки через гаранта",
      categoryId: 5,
      page: 2,
      perPage: 10,
    });
    expect(parseSearchParams(new URLSearchParams("category=10&page=abc"))).toEqual({ q: "", categoryId: undefined, page: 1, perPage: 10 });
    expect(parseSearchParams(new URLSearchParams("category=&q="))).toMatchObject({ q: "", categoryId: undefined });
  });

  it("drops control characters and cuts long queries", () => {
    expect(normalizeQuery("\u0000сдел\u0001ка\n")).toBe("сдел ка");
    expect(normalizeQuery(null)).toBe("");
    expect(Array.from(normalizeQuery("я".repeat(500)))).toHaveLength(MAX_QUERY_LENGTH);
  });

  it("recognises queries that may be usernames", () => {
    expect(["trader", "@trader", "Иван_Петров", "ab"].every(looksLikeUsername)).toBe(true);
    expect(["a", "две слова", "сделка!", "x".repeat(33)].some(looksLikeUsername)).toBe(false);
  });
});

describe("highlighting", () => {
  it("escapes everything and marks only our markers, always balanced", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(highlightToHtml(`<b>${S}сделка${E}</b> & ${S}<img onerror=x>${E}`)).toBe(
      "&lt;b&gt;<mark>сделка</mark>&lt;/b&gt; &amp; <mark>&lt;img onerror=x&gt;</mark>",
    );
    expect(highlightToHtml(`${E}a${S}b${S}c`)).toBe("a<mark>bc</mark>");
    expect(highlightToHtml(`${S}${E}пусто\u0007`)).toBe("пусто");
  });

  it("turns a Markdown fragment into prose, keeping markers", () => {
    expect(stripMarkdownFragment(`## Итог\n\n- **${S}Сделка${E}** прошла [по ссылке](https://x.test) через \`гаранта\`\n> цитата ivan_petrov`)).toBe(
      `Итог ${S}Сделка${E} прошла по ссылке через гаранта цитата ivan_petrov`,
    );
    expect(stripMarkdownFragment("_курсив_ и __жирный__")).toBe("курсив и жирный");
  });
});

describe("look-alike letters and half-typed words (docs/product/content.md#search)", () => {
  it("turns Latin look-alikes inside Cyrillic words into Cyrillic, leaving Latin words alone", () => {
    expect(foldLookalikes("Прoдам aккаунт Steam USDT")).toBe("Продам аккаунт Steam USDT");
    expect(foldLookalikes("PRO100 сделка")).toBe("PRO100 сделка");
  });

  it("takes a plain last word of three letters or more as a prefix", () => {
    expect(splitPrefix("велосип")).toEqual({ rest: "", prefix: "велосип" });
    expect(splitPrefix("продам Велосип")).toEqual({ rest: "продам", prefix: "велосип" });
    expect(splitPrefix("скины -нож")).toEqual({ rest: "скины -нож", prefix: null });
    expect(splitPrefix('"сделка через гаранта"')).toEqual({ rest: '"сделка через гаранта"', prefix: null });
    expect(splitPrefix('"сделка через')).toEqual({ rest: '"сделка через', prefix: null });
    expect(splitPrefix("скины or ножи")).toEqual({ rest: "скины or ножи", prefix: null });
    expect(splitPrefix("ключ ве")).toEqual({ rest: "ключ ве", prefix: null });
  });
});
