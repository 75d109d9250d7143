/**
 * Outgoing mail (issue 6 "Email"): through nodemailer to SMTP_URL when it is set; otherwise
 * every message is written to DATA_DIR/mail/ as one JSON file and logged, with its links
 * outside production, so the email flows work on a fresh machine without a mail server. The
 * links carry single-use tokens, so a production log names only the file.
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getConfig, type AppConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/** One message: plain text and HTML bodies of the same Russian text. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What a mail file in DATA_DIR/mail/ holds (JSON): the message, its sender, links and time. */
export interface StoredMail extends MailMessage {
  from: string;
  /** The absolute links found in the text body, in order. */
  links: string[];
  /** ISO 8601. */
  createdAt: string;
}

/** Thrown when the SMTP server refuses or cannot be reached: 503 `mail_failed`. */
export class MailFailed extends AppError {
  constructor() {
    super("mail_failed", 503, "Не удалось отправить письмо. Попробуйте ещё раз позже.");
  }
}

let transporter: { url: string; transport: Transporter } | undefined;
let sequence = 0;

/** The folder mail files are written to when SMTP_URL is unset. */
export function mailDir(config: AppConfig = getConfig()): string {
  return path.join(config.dataDir, "mail");
}

/**
 * Sends `message` from MAIL_FROM. With SMTP_URL set it goes through nodemailer (throws
 * MailFailed, 503 `mail_failed`, when the server refuses); otherwise it is written to
 * DATA_DIR/mail/<time>-<seq>-<random>.json (names sort by time) and logged at info, with its
 * links unless NODE_ENV=production.
 */
export async function sendMail(message: MailMessage, config: AppConfig = getConfig()): Promise<void> {
  if (config.smtpUrl) {
    if (transporter?.url !== config.smtpUrl) transporter = { url: config.smtpUrl, transport: nodemailer.createTransport(config.smtpUrl) };
    try {
      await transporter.transport.sendMail({ from: config.mailFrom, ...message });
    } catch (error) {
      logger.error({ err: error, area: "mail" }, "SMTP delivery failed");
      throw new MailFailed();
    }
    return;
  }
  const stored: StoredMail = { from: config.mailFrom, ...message, links: linksIn(message.text), createdAt: new Date().toISOString() };
  const dir = mailDir(config);
  await mkdir(dir, { recursive: true });
  sequence = (sequence + 1) % 1_000_000;
  const name = `${Date.now()}-${String(sequence).padStart(6, "0")}-${randomBytes(3).toString("hex")}.json`;
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  const links = config.production ? "" : stored.links.map((link) => `\n  ${link}`).join("");
  logger.info({ area: "mail", file }, `«${message.subject}» to ${message.to} written to ${file}${links}`);
}

function linksIn(text: string): string[] {
  return text.match(/https?:\/\/\S+/g) ?? [];
}
