import { describe, expect, it } from "vitest";
import { describeTarget, TARGET_EXCERPT_LENGTH, targetExcerpt } from "./targets";

describe("notification targets (docs/product/notifications.md#targets)", () => {
  it("an excerpt is one readable line without Markdown, cut at 80 code points with «…»", () => {
    expect(targetExcerpt("**Спасибо**, всё\n\nдошло — [ссылка](https://x.test)")).toBe("Спасибо, всё дошло — ссылка");
    const long = targetExcerpt("слово ".repeat(40));
    expect([...long]).toHaveLength(TARGET_EXCERPT_LENGTH);
    expect(long.endsWith("…")).toBe(true);
    // An emoji is never cut in half.
    const emoji = targetExcerpt("😀".repeat(100));
    expect([...emoji]).toEqual([...Array(79).fill("😀"), "…"]);
  });

  it("names a post by its title, a comment by its excerpt and its post, and says when the item is gone", () => {
    expect(describeTarget({ kind: "post", text: "Как проверить продавца", postTitle: null })).toBe("Пост «Как проверить продавца»");
    expect(describeTarget({ kind: "comment", text: "Спасибо, всё дошло", postTitle: "Продам аккаунт" })).toBe(
      "Комментарий «Спасибо, всё дошло» к посту «Продам аккаунт»",
    );
    expect(describeTarget({ kind: "comment", text: "Спасибо", postTitle: null })).toBe("Комментарий «Спасибо»");
    expect(describeTarget({ kind: "wall_post", text: "Привет", postTitle: null })).toBe("Запись «Привет»");
    expect(describeTarget({ kind: "message", text: "Загляните", postTitle: null })).toBe("Сообщение «Загляните»");
    expect(describeTarget({ kind: "post", text: null, postTitle: null })).toBe("Пост удалён или скрыт");
    expect(describeTarget({ kind: "comment", text: null, postTitle: "Продам" })).toBe("Комментарий удалён или скрыт");
    expect(describeTarget(null)).toBeNull();
  });
});
