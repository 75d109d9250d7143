/**
 * The table of rate limits (docs/product/limits.md#rate-limits, README "Security") and the parser
 * of their RATE_LIMITS overrides. Pure, so the configuration module can read it; the counting is
 * in rate-limit.server.ts.
 */
import { CHAT_LIMITS } from "~/domain/conversations/types";
import type { RateLimitName } from "./config.server";

/** A limit: `points` actions per `durationS` seconds. */
export interface LimitSpec {
  points: number;
  durationS: number;
}

/** The default limits: `points` actions per `durationS` seconds, and what each protects. */
export const LIMITS = {
  /**
   * Failed sign-ins per (account, address): 10 per 15 minutes, then 429 for that address only —
   * password guessing from one place, without locking the owner out elsewhere (issue 13 item 2).
   */
  loginAccountAddress: { points: 10, durationS: 15 * 60 },
  /**
   * Failed sign-ins per address across accounts: 50 per 15 minutes — password spraying from one
   * place; high enough that a neighbour behind the same NAT does not lock the others out.
   */
  loginAddress: { points: 50, durationS: 15 * 60 },
  /**
   * Failed sign-ins per account from anywhere: past 10 in 15 minutes each further attempt on the
   * account waits LOGIN_SLOWDOWN_MS first (slowed, never refused: OWASP, GitHub, Discourse).
   */
  loginAccount: { points: 10, durationS: 15 * 60 },
  /** Registrations per address: 5 per hour — mass account creation (bots, sock puppets). */
  registrations: { points: 5, durationS: 60 * 60 },
  /** Posts: 1 per 30 s per member. */
  posts: { points: 1, durationS: 30 },
  /** Pictures uploaded into posts: 60 per hour per member — the disk filled with uploads. */
  imageUploads: { points: 60, durationS: 60 * 60 },
  /** Comments: 1 per 5 s per member. */
  comments: { points: 1, durationS: 5 },
  /** Wall posts: as comments, 1 per 5 s per member (a wall entry is a comment on a profile). */
  wallPosts: { points: 1, durationS: 5 },
  /** Likes (given or taken back): 100 per hour per member. */
  likes: { points: 100, durationS: 60 * 60 },
  /** Chat messages: 20 per 30 s per member, as CHAT_LIMITS states them for the browser too. */
  messages: { points: CHAT_LIMITS.messagesPerWindow, durationS: CHAT_LIMITS.windowS },
  /** New personal conversations: 30 per hour per member — unsolicited messages to many members. */
  conversationStarts: { points: 30, durationS: 60 * 60 },
  /** New group conversations: 10 per hour per member — groups used to spam invitations. */
  groups: { points: 10, durationS: 60 * 60 },
  /** Transfers (held or not) and early releases: 30 per minute per member — ledger and notification floods. */
  transfers: { points: 30, durationS: 60 },
  /** Deposit top-ups, withdrawal requests and cancellations: 20 per hour per member — the same, on the deposit. */
  deposits: { points: 20, durationS: 60 * 60 },
  /** New guarantor deals: 20 per hour per member — deal offers spammed at members. */
  deals: { points: 20, durationS: 60 * 60 },
} as const satisfies Record<RateLimitName, LimitSpec>;

/** The names RATE_LIMITS may override: exactly the keys of LIMITS (config.server.js RATE_LIMIT_NAMES). */
export type LimitName = keyof typeof LIMITS;
// Both ways: a limit added here without its name in RATE_LIMIT_NAMES fails to compile.
const _everyLimitNamed: Record<LimitName, true> = {} as Record<RateLimitName, true>;
void _everyLimitNamed;

/** How long an attempt on an account past its `loginAccount` limit waits before the password is checked, in ms. */
export const LOGIN_SLOWDOWN_MS = 2000;
