/**
 * Single-use, expiring account tokens mailed to a member (issue 6 "Email"): email
 * verification, password reset and email change. The member gets a random 32-byte base64url
 * token; only its SHA-256 is stored in `account_tokens`, so a database leak reveals no link.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { accountTokens } from "~/db/schema";
import { ValidationFailed } from "~/lib/errors";

export type TokenPurpose = "email_verify" | "password_reset" | "email_change";

const HOUR_MS = 60 * 60 * 1000;

/** How long a token of each purpose stays valid, in ms: verification 48 h, reset 1 h, email change 24 h. */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  email_verify: 48 * HOUR_MS,
  password_reset: HOUR_MS,
  email_change: 24 * HOUR_MS,
};

/** Purposes where a new token replaces the member's older unused ones (only the newest link works). */
const REPLACES_OLDER: ReadonlySet<TokenPurpose> = new Set(["password_reset", "email_change"]);

/** The SHA-256 (hex) stored for `token`. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Creates a token of `purpose` for member `userId` (an email_change token carries `newEmail`,
 * the address it confirms) and returns the token to mail. For password_reset and email_change
 * the member's older unused tokens of that purpose are deleted first, in the same transaction.
 * `now` (ms) is for tests.
 */
export async function createAccountToken(db: Db, userId: number, purpose: TokenPurpose, options: { newEmail?: string; now?: number } = {}): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = options.now ?? Date.now();
  await db.transaction(async (tx) => {
    if (REPLACES_OLDER.has(purpose)) {
      await tx.delete(accountTokens).where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
    }
    await tx.insert(accountTokens).values({
      userId,
      purpose,
      tokenHash: hashToken(token),
      newEmail: purpose === "email_change" ? (options.newEmail ?? null) : null,
      expiresAt: new Date(now + TOKEN_TTL_MS[purpose]),
    });
  });
  return token;
}

/** What a consumed or inspected token grants. */
export interface AccountTokenGrant {
  userId: number;
  /** The address an email_change token confirms; null for other purposes. */
  newEmail: string | null;
}

const MESSAGES = {
  token_invalid: "Ссылка недействительна. Запросите новое письмо.",
  token_used: "Эта ссылка уже использована. Запросите новое письмо, если нужно.",
  token_expired: "Срок действия ссылки истёк. Запросите новое письмо.",
} as const;

/** Malformed strings are refused before touching the database. */
function looksLikeToken(token: unknown): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

/**
 * Uses `token` of `purpose` once, atomically (one UPDATE … WHERE used_at IS NULL AND
 * expires_at > now(): of two concurrent calls exactly one wins). Call it inside the
 * transaction that applies the token's effect, so a failed effect leaves the token unused.
 * Returns the grant. Throws ValidationFailed (400) with code `token_invalid` (unknown token
 * or another purpose), `token_used` or `token_expired`.
 */
export async function consumeAccountToken(db: Db, token: unknown, purpose: TokenPurpose): Promise<AccountTokenGrant> {
  if (!looksLikeToken(token)) throw refusal("token_invalid");
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        sql`${accountTokens.expiresAt} > now()`,
      ),
    )
    .returning({ userId: accountTokens.userId, newEmail: accountTokens.newEmail });
  if (row) return row;
  throw refusal(await whyUnusable(db, token, purpose));
}

/**
 * Checks `token` of `purpose` without using it (to show a form only for a working link).
 * Returns the grant; throws as consumeAccountToken does.
 */
export async function inspectAccountToken(db: Db, token: unknown, purpose: TokenPurpose): Promise<AccountTokenGrant> {
  if (!looksLikeToken(token)) throw refusal("token_invalid");
  const [row] = await db
    .select({
      userId: accountTokens.userId,
      newEmail: accountTokens.newEmail,
      used: sql<boolean>`${accountTokens.usedAt} is not null`,
      expired: sql<boolean>`${accountTokens.expiresAt} <= now()`,
    })
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hashToken(token)), eq(accountTokens.purpose, purpose)))
    .limit(1);
  if (!row) throw refusal("token_invalid");
  if (row.used) throw refusal("token_used");
  if (row.expired) throw refusal("token_expired");
  return { userId: row.userId, newEmail: row.newEmail };
}

async function whyUnusable(db: Db, token: string, purpose: TokenPurpose): Promise<keyof typeof MESSAGES> {
  try {
    await inspectAccountToken(db, token, purpose);
  } catch (error) {
    if (error instanceof ValidationFailed) return error.code as keyof typeof MESSAGES;
    throw error;
  }
  // It became usable between the two statements: cannot happen for a single-use token.
  return "token_invalid";
}

function refusal(code: keyof typeof MESSAGES): ValidationFailed {
  return new ValidationFailed(MESSAGES[code], undefined, code);
}
