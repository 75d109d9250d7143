import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createReadMarker, READ_MARK_INTERVAL_MS } from "./read-marker";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("createReadMarker (marking the open conversation read as messages arrive)", () => {
  it("marks the first message at once, then at most once per second with the newest id", () => {
    const sent: number[] = [];
    const marker = createReadMarker((upTo) => sent.push(upTo));
    marker.mark(10);
    expect(sent).toEqual([10]);
    marker.mark(11);
    marker.mark(13);
    marker.mark(12);
    expect(sent).toEqual([10]);
    vi.advanceTimersByTime(READ_MARK_INTERVAL_MS - 1);
    expect(sent).toEqual([10]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([10, 13]);
    // A quiet second closes the window: the next message is marked at once again.
    vi.advanceTimersByTime(READ_MARK_INTERVAL_MS);
    expect(sent).toEqual([10, 13]);
    marker.mark(20);
    expect(sent).toEqual([10, 13, 20]);
  });

  it("sends what is waiting when the conversation is left, and nothing after", () => {
    const sent: number[] = [];
    const marker = createReadMarker((upTo) => sent.push(upTo));
    marker.mark(1);
    marker.mark(2);
    marker.flush();
    expect(sent).toEqual([1, 2]);
    marker.flush();
    vi.advanceTimersByTime(10 * READ_MARK_INTERVAL_MS);
    expect(sent).toEqual([1, 2]);
  });
});
