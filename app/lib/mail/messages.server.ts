/**
 * The Russian texts of account mail (issue 6 "Email"): each message has a plain-text body and
 * the same text as simple HTML, with one absolute link built from PUBLIC_URL.
 */
import { getConfig } from "~/lib/config.server";
import type { MailMessage } from "./mailer.server";

/** The absolute URL of `pathWithQuery` on this site (PUBLIC_URL). */
export function absoluteUrl(pathWithQuery: string): string {
  return getConfig().publicUrl + pathWithQuery;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function compose(to: string, subject: string, lines: { before: string[]; action: string; link: string; after: string[] }): MailMessage {
  const site = getConfig().siteName;
  const text = [...lines.before, "", `${lines.action}: ${lines.link}`, "", ...lines.after, "", `— ${site}`].join("\n");
  const paragraph = (line: string) => `<p>${escapeHtml(line)}</p>`;
  const html = [
    ...lines.before.map(paragraph),
    `<p><a href="${escapeHtml(lines.link)}">${escapeHtml(lines.action)}</a></p>`,
    `<p style="color:#666;font-size:12px">${escapeHtml(lines.link)}</p>`,
    ...lines.after.map(paragraph),
    `<p>— ${escapeHtml(site)}</p>`,
  ].join("\n");
  return { to, subject, text, html };
}

/** The address-verification mail sent after registration (link valid 48 h). */
export function verificationMail(to: string, username: string, token: string): MailMessage {
  return compose(to, `Подтвердите email на сайте ${getConfig().siteName}`, {
    before: [`Здравствуйте, ${username}!`, "Подтвердите, что этот адрес принадлежит вам."],
    action: "Подтвердить email",
    link: absoluteUrl(`/auth/email/validate?token=${encodeURIComponent(token)}`),
    after: ["Ссылка действует 48 часов. Если вы не регистрировались, просто удалите это письмо."],
  });
}

/** The password-reset mail (link valid 1 h). */
export function passwordResetMail(to: string, username: string, token: string): MailMessage {
  return compose(to, `Сброс пароля на сайте ${getConfig().siteName}`, {
    before: [`Здравствуйте, ${username}!`, "Кто-то (надеемся, вы) попросил сбросить пароль вашего аккаунта."],
    action: "Задать новый пароль",
    link: absoluteUrl(`/auth/password/reset?token=${encodeURIComponent(token)}`),
    after: ["Ссылка действует 1 час и сработает один раз. Если вы не просили сброс, ничего не делайте: пароль останется прежним."],
  });
}

/** The email-change confirmation, sent to the NEW address (link valid 24 h). */
export function emailChangeMail(to: string, username: string, token: string): MailMessage {
  return compose(to, `Подтвердите новый email на сайте ${getConfig().siteName}`, {
    before: [`Здравствуйте, ${username}!`, `Вы хотите сменить email аккаунта на ${to}.`],
    action: "Подтвердить новый email",
    link: absoluteUrl(`/auth/email/change?token=${encodeURIComponent(token)}`),
    after: ["Ссылка действует 24 часа. Пока вы не перейдёте по ней, адрес останется прежним. Если это были не вы, удалите письмо."],
  });
}
