/**
 * Marking the open conversation read as its messages arrive, without a request per message:
 * in a busy group every member would otherwise post one for each message. Pure timing; the
 * conversation view supplies the request.
 */

/** How often, at most, the open conversation is marked read as messages arrive (ms). */
export const READ_MARK_INTERVAL_MS = 1000;

/** A throttled read marker (see createReadMarker). */
export interface ReadMarker {
  /** Message `upTo` (and every one before it) has been seen. */
  mark(upTo: number): void;
  /** Sends a mark still waiting now and stops the timer (the conversation is being left). */
  flush(): void;
}

/**
 * Calls `send` at most once per `intervalMs`: the first message of a quiet spell is marked at
 * once, those arriving within the interval together at its end, with the highest id.
 */
export function createReadMarker(send: (upTo: number) => void, intervalMs: number = READ_MARK_INTERVAL_MS): ReadMarker {
  let waiting: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const sendWaiting = () => {
    if (waiting === null) return false;
    const upTo = waiting;
    waiting = null;
    send(upTo);
    return true;
  };
  const tick = () => {
    // A mark sent opens the next interval; an interval with nothing to send ends the spell.
    timer = sendWaiting() ? setTimeout(tick, intervalMs) : null;
  };
  return {
    mark(upTo) {
      waiting = Math.max(waiting ?? 0, upTo);
      if (timer === null) tick();
    },
    flush() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      sendWaiting();
    },
  };
}
