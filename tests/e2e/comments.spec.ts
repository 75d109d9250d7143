/**
 * Comments on a post, with JavaScript on and off (the same journey runs in both projects):
 * a member comments, another replies, a third answers the reply (shown at the second level
 * with «в ответ @username»; the second likes the first's comment), the first edits and deletes
 * their comment and the replies stay.
 * Each member writes one comment, so the 5-second comment limit never gets in the way.
 */
import type { Page } from "@playwright/test";
import { authenticate, clickAndSave, expect, newMember, registerMember, signOut, test } from "./fixtures";

/** The saved comment (not the optimistic copy) whose text contains `text`; resolves to its DOM id. */
async function savedCommentId(page: Page, text: string): Promise<string> {
  const comment = page
    .getByTestId("comments")
    .getByTestId("comment")
    .filter({ has: page.locator(".comment-body").getByText(text) });
  await expect(comment).toHaveAttribute("id", /^comment-\d+$/);
  return (await comment.getAttribute("id"))!;
}

test("comment, reply, reply to a reply, edit and delete: the thread keeps its shape", async ({ page }) => {
  const [anna, boris, vera] = [newMember(), newMember(), newMember()];

  // Anna opens a post from the home page and comments.
  await registerMember(page, anna);
  await page.goto("/");
  // A demo member's post: a journey running beside this one expects comments on its own posts from its own members only.
  const card = page.getByTestId("post-card").filter({ hasNotText: "e2e_" }).first();
  const title = (await card.getByRole("heading", { level: 2 }).innerText()).trim();
  await card.getByRole("heading", { level: 2 }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const postPath = new URL(page.url()).pathname;
  expect(postPath).toMatch(/^\/post\/\d+$/);

  const comments = page.getByTestId("comments");
  const withJs = test.info().project.use.javaScriptEnabled !== false;
  // With JavaScript the forms go through fetchers once the page is hydrated (they then carry `via`).
  if (withJs) await expect(comments.locator('input[name="via"]').first()).toBeAttached();
  const annaText = `Есть ли гарантия на товар? Спрашивает ${anna.username}`;
  await comments.getByLabel("Ваш комментарий").fill(annaText);
  await comments.getByRole("button", { name: "Отправить" }).click();
  const annaId = await savedCommentId(page, annaText);
  // A fetcher keeps the page where it is; a plain form comes back to the new comment's anchor.
  await expect(page).toHaveURL(withJs ? postPath : `${postPath}#${annaId}`);
  const annaComment = page.locator(`#${annaId}`);
  await expect(annaComment.locator(".member-name")).toHaveText(anna.username);
  await expect(comments.getByLabel("Ваш комментарий")).toHaveValue("");
  await signOut(page);

  // Boris replies to Anna, mentioning her.
  await registerMember(page, boris);
  await page.goto(postPath);
  await expect(annaComment.locator(".comment-body")).toHaveText(annaText);
  // Boris likes Anna's comment: without JavaScript the page's shared like form brings him back to the button.
  if (withJs) await expect(comments.locator('input[name="via"]').first()).toBeAttached();
  await clickAndSave(annaComment.getByRole("button", { name: "Нравится", exact: true }), "/likes");
  const annaLiked = annaComment.getByRole("button", { name: "Больше не нравится", exact: true });
  await expect(annaLiked).toHaveAttribute("aria-pressed", "true");
  await expect(annaLiked.getByTestId("like-count")).toHaveText("1");
  await expect(page).toHaveURL(withJs ? postPath : `${postPath}#like-${annaId}`);
  const borisText = `Гарантия 14 дней, уточните у продавца (${boris.username})`;
  // «Ответить» opens the form in place, or without JavaScript as the page's only reply form (?reply=).
  const replyForms = comments.locator('input[name="parentId"]');
  await expect(replyForms).toHaveCount(0);
  if (withJs) await expect(comments.locator('input[name="via"]').first()).toBeAttached();
  await annaComment.getByRole("link", { name: "Ответить", exact: true }).click();
  await expect(page).toHaveURL(withJs ? postPath : `${postPath}?reply=${annaId.slice("comment-".length)}#${annaId}`);
  await expect(replyForms).toHaveCount(1);
  await annaComment.getByLabel(`Ответ для @${anna.username}`).fill(`@${anna.username}, ${borisText}`);
  await annaComment.getByRole("button", { name: "Ответить", exact: true }).click();
  const borisId = await savedCommentId(page, borisText);
  const thread = comments.getByTestId("comment-thread").filter({ has: page.locator(`#${annaId}`) });
  const borisReply = thread.getByRole("listitem").filter({ has: page.locator(`#${borisId}`) });
  await expect(borisReply).toBeVisible();
  const mention = borisReply.getByRole("link", { name: `@${anna.username}` });
  await expect(mention).toHaveAttribute("href", /^\/profile\/\d+$/);
  // A direct reply needs no «в ответ»: its place in the thread says it.
  await expect(borisReply.getByTestId("comment-reply-to")).toHaveCount(0);
  await signOut(page);

  // Vera answers Boris's reply: still one level in, saying whom she answers.
  await registerMember(page, vera);
  await page.goto(postPath);
  const borisComment = page.locator(`#${borisId}`);
  if (withJs) await expect(comments.locator('input[name="via"]').first()).toBeAttached();
  await borisComment.getByRole("link", { name: "Ответить", exact: true }).click();
  const veraText = `Подтверждаю, брала у него же (${vera.username})`;
  await borisComment.getByLabel(`Ответ для @${boris.username}`).fill(veraText);
  if (withJs) {
    // Closed and opened again, the form still holds what was typed.
    const replyLink = borisComment.getByRole("link", { name: "Ответить", exact: true });
    await replyLink.click();
    await expect(borisComment.getByLabel(`Ответ для @${boris.username}`)).toBeHidden();
    await replyLink.click();
    await expect(borisComment.getByLabel(`Ответ для @${boris.username}`)).toHaveValue(veraText);
  }
  await borisComment.getByRole("button", { name: "Ответить", exact: true }).click();
  const veraId = await savedCommentId(page, veraText);
  const veraReply = thread.getByRole("listitem").filter({ has: page.locator(`#${veraId}`) });
  await expect(veraReply.getByTestId("comment-reply-to")).toHaveText(`в ответ @${boris.username}`);
  await expect(thread.getByRole("listitem")).toHaveCount(2);
  await expect(borisReply.getByTestId("comment")).toHaveCount(1);
  await signOut(page);

  // Anna sees the whole thread, edits her comment, then deletes it.
  await authenticate(page, anna);
  await page.goto(postPath);
  await expect(thread.locator(".comment-body")).toHaveText([annaText, `@${anna.username}, ${borisText}`, veraText]);

  const edited = `Есть ли гарантия и возврат? Спрашивает ${anna.username}`;
  await annaComment.locator("summary", { hasText: "Изменить" }).click();
  await annaComment.getByLabel("Текст комментария").fill(edited);
  await clickAndSave(annaComment.getByRole("button", { name: "Сохранить" }));
  await expect(annaComment.locator(".comment-body")).toHaveText(edited);
  await expect(annaComment.getByTestId("comment-edited")).toBeVisible();

  await clickAndSave(annaComment.getByRole("button", { name: "Удалить" }));
  await expect(annaComment.locator(".comment-body")).toHaveText("Комментарий удалён");
  await expect(annaComment.getByRole("button", { name: "Удалить" })).toHaveCount(0);
  await expect(borisComment.locator(".comment-body")).toContainText(borisText);
  await expect(page.locator(`#${veraId}`).locator(".comment-body")).toHaveText(veraText);

  // A fresh load shows the same: the deleted text is gone for good, the thread is intact.
  await page.goto(postPath);
  await expect(annaComment.locator(".comment-body")).toHaveText("Комментарий удалён");
  await expect(page.getByText(edited)).toHaveCount(0);
  await expect(thread.getByRole("listitem")).toHaveCount(2);
});
