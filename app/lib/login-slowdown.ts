/**
 * The waiting room of the login slow-down (docs/product/accounts.md#sign-in, issue 13 item 2).
 * An attempt on an account tried too often waits LOGIN_SLOWDOWN_MS before its password is
 * checked; each waiting attempt holds an open request, so without a cap a flood of guesses
 * from rotating addresses would pile up sockets and memory. At most `perAccount` attempts wait
 * per account and `perProcess` in the whole process; the next one is refused at once.
 */
import { RateLimited } from "./errors";

/** The caps of the login waiting room: attempts waiting per account and per server process. */
export const LOGIN_WAITING_LIMITS = { perAccount: 5, perProcess: 100 } as const;

/** The message of a sign-in refused because the waiting room is full (the sign-in page shows it). */
export const LOGIN_BUSY_MESSAGE = "Слишком много попыток входа в этот аккаунт. Подождите пару секунд и попробуйте снова.";

/** The stable /api error code of that refusal. */
export const LOGIN_BUSY_CODE = "login_busy";

export interface LoginWaitingRoomOptions {
  /** How long each attempt waits, in ms. */
  delayMs: number;
  perAccount: number;
  perProcess: number;
  /** Resolves after `ms`; tests pass one they resolve themselves. */
  sleep?: (ms: number) => Promise<void>;
}

export interface LoginWaitingRoom {
  /**
   * Waits `delayMs` for account `accountKey`. Throws RateLimited (429 `login_busy`, Retry-After
   * the delay: a place frees within it) at once, without waiting, when `perAccount` attempts on
   * this account or `perProcess` in all are already waiting.
   */
  wait(accountKey: string): Promise<void>;
  /** Attempts waiting now: on `accountKey`, or in all without it. */
  waiting(accountKey?: string): number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLoginWaitingRoom({ delayMs, perAccount, perProcess, sleep = realSleep }: LoginWaitingRoomOptions): LoginWaitingRoom {
  const byAccount = new Map<string, number>();
  let total = 0;
  return {
    async wait(accountKey) {
      const mine = byAccount.get(accountKey) ?? 0;
      if (mine >= perAccount || total >= perProcess) throw new RateLimited(delayMs, LOGIN_BUSY_MESSAGE, LOGIN_BUSY_CODE);
      byAccount.set(accountKey, mine + 1);
      total++;
      try {
        await sleep(delayMs);
      } finally {
        total--;
        const left = (byAccount.get(accountKey) ?? 1) - 1;
        if (left > 0) byAccount.set(accountKey, left);
        else byAccount.delete(accountKey);
      }
    },
    waiting(accountKey) {
      return accountKey === undefined ? total : (byAccount.get(accountKey) ?? 0);
    },
  };
}
