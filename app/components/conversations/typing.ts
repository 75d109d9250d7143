/**
 * Who is typing in the open conversation (docs/product/conversations.md#typing), as the browser
 * keeps it: names from typing frames, each until TYPING_TIMING.expireMs after its last frame or
 * until that member's message arrives. Pure functions; the view supplies the clock.
 */
import { TYPING_TIMING } from "~/lib/realtime/frames";

/** Members typing: id → their name and when they stop counting (ms since the epoch). */
export type Typists = ReadonlyMap<number, { username: string; until: number }>;

/** True for data shaped like a typing frame `{type: "typing", user: {id, username}}`. */
export function isTypingFrame(data: unknown): data is { type: "typing"; user: { id: number; username: string } } {
  if (typeof data !== "object" || data === null) return false;
  const frame = data as { type?: unknown; user?: { id?: unknown; username?: unknown } };
  return frame.type === "typing" && typeof frame.user?.id === "number" && typeof frame.user.username === "string";
}

/** `typists` with member `user` typing from `now` on. */
export function addTypist(typists: Typists, user: { id: number; username: string }, now: number): Typists {
  const next = new Map(typists);
  next.set(user.id, { username: user.username, until: now + TYPING_TIMING.expireMs });
  return next;
}

/** `typists` without member `userId` (their message arrived); the same map when absent. */
export function removeTypist(typists: Typists, userId: number): Typists {
  if (!typists.has(userId)) return typists;
  const next = new Map(typists);
  next.delete(userId);
  return next;
}

/** `typists` without those whose time ran out by `now`; the same map when none did. */
export function expireTypists(typists: Typists, now: number): Typists {
  if ([...typists.values()].every((t) => t.until > now)) return typists;
  return new Map([...typists].filter(([, t]) => t.until > now));
}

/** «Иван печатает…», «Иван и Мария печатают…», «Иван и ещё 2 печатают…»; "" for nobody. */
export function typingText(names: readonly string[]): string {
  if (names.length === 0) return "";
  if (names.length === 1) return `${names[0]} печатает…`;
  if (names.length === 2) return `${names[0]} и ${names[1]} печатают…`;
  return `${names[0]} и ещё ${names.length - 1} печатают…`;
}

/**
 * How long after the last typing frame the first keystroke after a sent message is announced
 * (ms): the server passes on one frame per TYPING_TIMING.relayIntervalMs per socket and drops
 * the rest, so an earlier one would never reach the others; a quarter second more covers the
 * frames' different trips.
 */
export const TYPING_AFTER_MESSAGE_MS = TYPING_TIMING.relayIntervalMs + 250;

/**
 * A sender of typing frames that sends at most once per `intervalMs`
 * (TYPING_TIMING.sendIntervalMs): call it on every keystroke. After `reset()` (a message left)
 * the next keystroke is announced at once, or, when the last frame is younger than
 * TYPING_AFTER_MESSAGE_MS, through `schedule` once that much time has passed.
 */
export function createTypingThrottle(
  send: () => void,
  now: () => number = Date.now,
  intervalMs: number = TYPING_TIMING.sendIntervalMs,
  schedule: (run: () => void, ms: number) => void = (run, ms) => void window.setTimeout(run, ms),
) {
  let last = -Infinity;
  let wait = intervalMs;
  let queued = false;
  const fire = () => {
    last = now();
    wait = intervalMs;
    send();
  };
  return {
    typed() {
      const t = now();
      if (t - last >= wait) return fire();
      if (wait < intervalMs && !queued) {
        queued = true;
        schedule(
          () => {
            queued = false;
            fire();
          },
          last + wait - t,
        );
      }
    },
    /** The message left: the next keystroke announces typing again as soon as it can reach the others. */
    reset() {
      wait = TYPING_AFTER_MESSAGE_MS;
    },
  };
}
