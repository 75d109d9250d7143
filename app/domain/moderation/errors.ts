/**
 * The typed refusals of sanctions (docs/product/moderation.md#suspension-and-mute), shared by
 * the server and pages (no server imports): the sign-in page shows «why and until when» from
 * `reason` and `until`; /api bodies carry them as `errors.details` {reason, until}.
 */
import { AppError } from "~/lib/errors";
import { formatDateTime } from "~/lib/format";

function untilText(until: Date | null): string {
  return until ? `до ${formatDateTime(until.toISOString())} (МСК)` : "бессрочно";
}

/**
 * A suspended member tried to sign in (password form, the Auth.js-style call, Telegram) or to
 * act: 403 `account_suspended`, «Ваша учётная запись заблокирована до … (МСК). Причина: …».
 */
export class AccountSuspended extends AppError {
  constructor(
    readonly reason: string,
    /** When the suspension ends; null for good. */
    readonly until: Date | null,
  ) {
    super("account_suspended", 403, `Ваша учётная запись заблокирована ${untilText(until)}. Причина: ${reason}`);
    this.details = { reason, until: until?.toISOString() ?? null };
  }
}

/**
 * A muted member tried to publish a post, comment, wall entry or message (or edit one): 403
 * `member_muted`, «Модератор запретил вам публиковать … Причина: …».
 */
export class MemberMuted extends AppError {
  constructor(
    readonly reason: string,
    /** When the mute ends; null for good. */
    readonly until: Date | null,
  ) {
    super("member_muted", 403, `Модератор запретил вам публиковать ${untilText(until)}: читать сайт и проводить сделки можно. Причина: ${reason}`);
    this.details = { reason, until: until?.toISOString() ?? null };
  }
}
