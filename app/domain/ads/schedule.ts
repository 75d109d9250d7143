/**
 * When an approved ad starts (docs/product/pages.md#ads): at once if its slot has a free place
 * for its whole period, otherwise when enough running ads end. Pure, so it is tested alone.
 */

/** A period an ad occupies a place: [start, end) in ms. */
export interface Occupied {
  start: number;
  end: number;
}

/**
 * The earliest start ≥ `now` (ms) such that, for the whole `durationMs` from it, fewer than
 * `capacity` of `occupied` overlap at any moment. Candidates are `now` and every end after it:
 * a place only frees when an ad ends.
 */
export function earliestStart(now: number, durationMs: number, capacity: number, occupied: readonly Occupied[]): number {
  const live = occupied.filter((period) => period.end > now);
  const candidates = [now, ...live.map((period) => period.end)].sort((a, b) => a - b);
  for (const start of candidates) {
    const end = start + durationMs;
    // The count only rises where a period starts, so checking those moments (and `start`) is enough.
    const moments = [start, ...live.map((period) => period.start).filter((moment) => moment > start && moment < end)];
    const fits = moments.every((moment) => live.filter((period) => period.start <= moment && moment < period.end).length < capacity);
    if (fits) return start;
  }
  return candidates[candidates.length - 1]!;
}
