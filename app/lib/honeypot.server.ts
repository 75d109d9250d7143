import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { getConfig } from "./config.server";
import { ValidationFailed } from "./errors";

let instance: Honeypot | undefined;

/** The honeypot of public sign-up forms (remix-utils): a hidden field bots fill in. */
export function honeypot(): Honeypot {
  instance ??= new Honeypot({ encryptionSeed: getConfig().sessionSecret });
  return instance;
}

/** Throws ValidationFailed (`spam`) when the honeypot field was filled or the form is forged. */
export async function checkHoneypot(formData: FormData): Promise<void> {
  try {
    await honeypot().check(formData);
  } catch (error) {
    if (error instanceof SpamError) throw new ValidationFailed("Форма отклонена. Обновите страницу и попробуйте ещё раз.", undefined, "spam");
    throw error;
  }
}
