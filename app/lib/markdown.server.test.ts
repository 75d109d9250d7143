import { describe, expect, it } from "vitest";
import { markdownExcerpt, renderMarkdown } from "./markdown.server";

describe("renderMarkdown", () => {
  it("renders headings, lists, emphasis and code", () => {
    const html = renderMarkdown("## Условия\n\n- **Цена:** 2 500 ₽\n- `торг`\n\n```js\nconst a = 1;\n```");
    expect(html).toContain("<h2>Условия</h2>");
    expect(html).toContain("<strong>Цена:</strong>");
    expect(html).toContain("<code>торг</code>");
    expect(html).toContain('<code class="language-js">');
  });

  it.each([
    ["<script>alert(1)</script>Текст", "<script"],
    ['<img src="x" onerror="alert(1)">', "onerror"],
    ["[жми](javascript:alert(1))", "javascript:"],
    ['<a href="javascript:alert(1)">жми</a>', "javascript:"],
    ['<a href="JaVaScRiPt:alert(1)">жми</a>', "avascript"],
    ['<div style="background:url(javascript:alert(1))">x</div>', "style="],
    ['<iframe src="https://evil.example"></iframe>', "<iframe"],
    ['<svg onload="alert(1)"></svg>', "onload"],
    ["![x](data:text/html;base64,PHNjcmlwdD4=)", "data:"],
  ])("removes dangerous markup from %s", (markdown, forbidden) => {
    expect(renderMarkdown(markdown).toLowerCase()).not.toContain(forbidden.toLowerCase());
  });

  it("keeps safe links and marks them as user content", () => {
    const html = renderMarkdown("[гарант](https://example.com/guarantor)");
    expect(html).toContain('href="https://example.com/guarantor"');
    expect(html).toContain('rel="nofollow ugc noopener noreferrer"');
  });
});

describe("markdownExcerpt", () => {
  it("keeps headings and list items apart", () => {
    expect(markdownExcerpt("## Условия\n\n- курс по бирже\n- встреча в офисе\n\nПишите в личку.")).toBe(
      "Условия: курс по бирже; встреча в офисе; Пишите в личку.",
    );
  });

  it("strips markup and cuts long text with an ellipsis", () => {
    const excerpt = markdownExcerpt(`## Заголовок\n\n**Жирный** текст & ${"слово ".repeat(100)}`, 50);
    expect(excerpt.startsWith("Заголовок: Жирный текст & слово")).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(50);
    expect(excerpt.endsWith("…")).toBe(true);
  });
});
