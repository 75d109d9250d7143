import { describe, expect, it } from "vitest";
import { earliestStart } from "./schedule";

const DAY = 86_400_000;

describe("earliestStart", () => {
  it("starts at once in an empty slot or one with a free place", () => {
    expect(earliestStart(0, DAY, 1, [])).toBe(0);
    expect(earliestStart(0, DAY, 2, [{ start: -DAY, end: 3 * DAY }])).toBe(0);
  });

  it("waits for the first running ad to end when the slot is full", () => {
    expect(earliestStart(0, DAY, 1, [{ start: -DAY, end: 2 * DAY }])).toBe(2 * DAY);
    expect(
      earliestStart(0, DAY, 2, [
        { start: -DAY, end: 5 * DAY },
        { start: 0, end: 3 * DAY },
      ]),
    ).toBe(3 * DAY);
  });

  it("does not start before an ad already scheduled later if the two would overlap in a full slot", () => {
    // One place; an ad runs days 2–4: a 3-day ad cannot fit before it, so it starts on day 4.
    expect(earliestStart(0, 3 * DAY, 1, [{ start: 2 * DAY, end: 4 * DAY }])).toBe(4 * DAY);
    // A 1-day ad fits before it.
    expect(earliestStart(0, DAY, 1, [{ start: 2 * DAY, end: 4 * DAY }])).toBe(0);
  });

  it("ignores ads that have ended", () => {
    expect(earliestStart(10 * DAY, DAY, 1, [{ start: 0, end: 5 * DAY }])).toBe(10 * DAY);
  });
});
