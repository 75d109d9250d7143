/**
 * Checks Telegram Mini App initData as Telegram documents it (HMAC-SHA256 keyed with
 * HMAC("WebAppData", bot token), and the freshness of auth_date), through
 * @telegram-apps/init-data-node (issue 6 "Telegram sign-in").
 */
import { parse, validate } from "@telegram-apps/init-data-node";

/** The Telegram account a valid initData speaks for. */
export interface TelegramIdentity {
  /** Telegram's user id. */
  id: number;
  /** @username without the @, when the account has one. */
  username: string | null;
  firstName: string;
  lastName: string | null;
  /** When Telegram signed the data. */
  authDate: Date;
}

/** Why initData was refused: a stable code the endpoint answers and the logs show. */
export type InitDataFailure =
  "telegram_not_configured" | "init_data_missing" | "init_data_invalid" | "init_data_stale" | "init_data_future" | "init_data_no_user";

export type InitDataCheck = { ok: true; identity: TelegramIdentity } | { ok: false; reason: InitDataFailure };

/**
 * How far ahead of this server's clock auth_date may be, in seconds (TELEGRAM_INIT_DATA_MAX_SKEW):
 * clocks drift a little, but data "signed" in the future would stay fresh longer than the max age.
 */
export const DEFAULT_INIT_DATA_MAX_SKEW_S = 60;

/** initData longer than this is refused unread: Telegram's is well under 2 KB. */
const MAX_INIT_DATA_LENGTH = 8192;

/**
 * Validates `initData` (the raw query string Telegram.WebApp.initData holds) against
 * `botToken`. Refuses, never throws: no token configured (`telegram_not_configured`), missing
 * or empty or overlong (`init_data_missing`), a bad or absent hash, a tampered field or a
 * malformed payload (`init_data_invalid`), auth_date older than `maxAgeS` seconds before
 * `now` (`init_data_stale`), auth_date more than `maxSkewS` seconds after `now`
 * (`init_data_future`, issue 13 item 7), and data without a user, or a bot user (`init_data_no_user`).
 */
export function checkInitData(
  initData: unknown,
  botToken: string | undefined,
  maxAgeS: number,
  now = new Date(),
  maxSkewS = DEFAULT_INIT_DATA_MAX_SKEW_S,
): InitDataCheck {
  if (!botToken) return { ok: false, reason: "telegram_not_configured" };
  if (typeof initData !== "string" || initData.trim() === "" || initData.length > MAX_INIT_DATA_LENGTH) {
    return { ok: false, reason: "init_data_missing" };
  }
  try {
    // The library checks expiry against its own clock; check it ourselves so `now` is honoured.
    validate(initData, botToken, { expiresIn: 0 });
  } catch {
    // SignatureMissingError, SignatureInvalidError, AuthDateInvalidError or a malformed value.
    return { ok: false, reason: "init_data_invalid" };
  }
  const parsed = parseSafely(initData);
  if (!parsed) return { ok: false, reason: "init_data_invalid" };
  const authDate = parsed.auth_date;
  if (!(authDate instanceof Date) || Number.isNaN(authDate.getTime())) return { ok: false, reason: "init_data_invalid" };
  if (authDate.getTime() + maxAgeS * 1000 < now.getTime()) return { ok: false, reason: "init_data_stale" };
  if (authDate.getTime() - maxSkewS * 1000 > now.getTime()) return { ok: false, reason: "init_data_future" };
  const user = parsed.user;
  if (!user || user.is_bot || !Number.isSafeInteger(user.id) || user.id <= 0) return { ok: false, reason: "init_data_no_user" };
  return {
    ok: true,
    identity: {
      id: user.id,
      username: user.username || null,
      firstName: user.first_name ?? "",
      lastName: user.last_name || null,
      authDate,
    },
  };
}

/** The library's snake_case reading of signed initData, or null when a field is malformed. */
function parseSafely(initData: string) {
  try {
    return parse(initData);
  } catch {
    return null;
  }
}

/** The initData of an `Authorization: tma <initData>` header, or null when the header is absent or of another scheme. */
export function initDataFromAuthorization(request: Request): string | null {
  const header = request.headers.get("Authorization");
  if (!header) return null;
  const match = /^tma\s+(.+)$/i.exec(header.trim());
  return match ? match[1]! : null;
}
