import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "~/lib/config.server";
import { logger } from "~/lib/logger.server";
import { MailFailed, mailDir, sendMail, type StoredMail } from "./mailer.server";
import { passwordResetMail } from "./messages.server";

const dataDir = mkdtempSync(path.join(tmpdir(), "shodka-mail-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("mailer", () => {
  it("without SMTP_URL writes one JSON file per message and logs its link outside production", async () => {
    const config = getConfig({ DATA_DIR: dataDir, SESSION_SECRET: "s", PUBLIC_URL: "https://shodka.example/" });
    expect(config.mailFrom).toBe('"Сходка" <no-reply@shodka.example>');
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    const message = { to: "a@example.test", subject: "Тема <письма>", text: "Ссылка: https://shodka.example/x?token=abc\nКонец", html: "<p>Привет</p>" };
    await sendMail(message, config);
    await sendMail({ ...message, to: "b@example.test" }, config);
    const names = readdirSync(mailDir(config)).sort();
    expect(names).toHaveLength(2);
    const first = JSON.parse(readFileSync(path.join(mailDir(config), names[0]!), "utf8")) as StoredMail;
    expect(first).toMatchObject({ ...message, from: config.mailFrom, links: ["https://shodka.example/x?token=abc"] });
    expect(JSON.parse(readFileSync(path.join(mailDir(config), names[1]!), "utf8")).to).toBe("b@example.test");
    expect(info.mock.calls[0]![1]).toContain("https://shodka.example/x?token=abc");
    // The link's token signs someone in: a production log names only the file.
    await sendMail(message, { ...config, production: true });
    expect(info.mock.calls[2]![1]).toContain(mailDir(config));
    expect(info.mock.calls[2]![1]).not.toContain("token=abc");
    info.mockRestore();
  });

  it("with SMTP_URL an unreachable server is MailFailed (503 mail_failed), nothing written", async () => {
    const smtpDir = mkdtempSync(path.join(tmpdir(), "shodka-mail-smtp-"));
    const config = getConfig({ DATA_DIR: smtpDir, SESSION_SECRET: "s", SMTP_URL: "smtp://127.0.0.1:1", MAIL_FROM: "Сходка <robot@example.test>" });
    expect(config.mailFrom).toBe("Сходка <robot@example.test>");
    const error = vi.spyOn(logger, "error").mockImplementation(() => {});
    await expect(sendMail({ to: "a@example.test", subject: "s", text: "t", html: "h" }, config)).rejects.toMatchObject({
      constructor: MailFailed,
      code: "mail_failed",
      status: 503,
    });
    expect(readdirSync(smtpDir)).not.toContain("mail");
    error.mockRestore();
    rmSync(smtpDir, { recursive: true, force: true });
  });

  it("account mails carry an absolute link and escape HTML", () => {
    const mail = passwordResetMail("x@example.test", "<b>имя</b>", "tok_en-1");
    expect(mail.subject).toBe("Сброс пароля на сайте Сходка");
    expect(mail.text).toMatch(/Задать новый пароль: https?:\/\/[^/]+\/auth\/password\/reset\?token=tok_en-1/);
    expect(mail.html).toContain("&lt;b&gt;имя&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>имя</b>");
  });
});
