import { describe, expect, it } from "vitest";
import { cookMarkdown, cookVersion, cookedMentionNames, linkMentions, markdownExcerpt, renderMarkdown, shortenExcerpt } from "./markdown.server";

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

describe("images in posts (issue 13 item 11: no tracking pixels from other sites)", () => {
  it("loads a picture of this site through the image endpoint", () => {
    const html = renderMarkdown("![схема](/uploads/posts/scheme.png)");
    expect(html).toContain('src="/api/image?url=%2Fuploads%2Fposts%2Fscheme.png&amp;w=1536"');
    expect(html).toContain('alt="схема"');
  });

  it("shows the picture's 10×10 placeholder under it until it loads, and lets no other style through", () => {
    const html = renderMarkdown("![схема](/uploads/posts/scheme.png)");
    expect(html).toContain('style="background-image:url(&quot;/api/image?url=%2Fuploads%2Fposts%2Fscheme.png&amp;v=placeholder&quot;)');
    const hostile = renderMarkdown('<img src="/uploads/a.png" style="background-image:url(https://tracker.example/p.gif);position:fixed">');
    expect(hostile).not.toContain("tracker.example");
    expect(hostile).not.toContain("position");
  });

  it("turns a picture from any other site into a plain link: the reader's browser never fetches it", () => {
    const html = renderMarkdown('![пиксель](https://tracker.example/p.gif "t")');
    expect(html).not.toContain("<img");
    expect(html).toContain('<a href="https://tracker.example/p.gif"');
    expect(html).toContain("пиксель");
    expect(renderMarkdown('<img src="https://tracker.example/p.gif">')).not.toContain("<img");
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

  it("cuts a stored excerpt to a page description as the body itself would be cut", () => {
    for (const body of ["Коротко.", `## Продам\n\n${"аккаунт с историей, ".repeat(9)}`, `${"очень длинный текст ".repeat(40)}`]) {
      expect(shortenExcerpt(markdownExcerpt(body), 160)).toBe(markdownExcerpt(body, 160));
    }
  });
});

describe("cooked Markdown and its mentions (decision 0027)", () => {
  it("cooks mentions to placeholders that linkMentions resolves by the current name, or leaves as text", () => {
    const cooked = cookMarkdown("Привет @Вася_Трейдер и @ghost_name");
    expect(cookedMentionNames(cooked)).toEqual(["вася_трейдер", "ghost_name"]);
    const linked = linkMentions(cooked, new Map([["вася_трейдер", { id: 7, username: "Вася_Трейдер" }]]));
    expect(linked).toBe('<p>Привет <a href="/profile/7" class="mention">@Вася_Трейдер</a> и @ghost_name</p>\n');
  });

  it("never links a placeholder-like anchor whose text names someone else", () => {
    const cooked = cookMarkdown('<a href="/mention/admin" class="mention">@victim</a>');
    expect(linkMentions(cooked, new Map([["admin", { id: 1, username: "admin" }]]))).not.toContain("/profile/1");
  });

  it("stamps cooked HTML with a version that changes with the hosts pictures may load from", () => {
    const site = { imageAllowedHosts: [] };
    expect(cookVersion(site)).toMatch(/^\d+:[0-9a-f]{8}$/);
    expect(cookVersion(site)).toBe(cookVersion({ imageAllowedHosts: [] }));
    expect(cookVersion({ imageAllowedHosts: ["cdn.example.com"] })).not.toBe(cookVersion(site));
  });
});
