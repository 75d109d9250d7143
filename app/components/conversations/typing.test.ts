import { describe, expect, it } from "vitest";
import { TYPING_TIMING } from "~/lib/realtime/frames";
import { addTypist, createTypingThrottle, expireTypists, isTypingFrame, removeTypist, TYPING_AFTER_MESSAGE_MS, typingText } from "./typing";

describe("typing indicator (docs/product/conversations.md#typing)", () => {
  it("names one, two or more members", () => {
    expect(typingText([])).toBe("");
    expect(typingText(["Иван"])).toBe("Иван печатает…");
    expect(typingText(["Иван", "Мария"])).toBe("Иван и Мария печатают…");
    expect(typingText(["Иван", "Мария", "Олег"])).toBe("Иван и ещё 2 печатают…");
  });

  it("keeps a name for 5 s after its last frame, and drops it when the member's message arrives", () => {
    let typists = addTypist(new Map(), { id: 1, username: "Иван" }, 1000);
    typists = addTypist(typists, { id: 2, username: "Мария" }, 3000);
    expect(expireTypists(typists, 1000 + TYPING_TIMING.expireMs - 1)).toBe(typists);
    expect([...expireTypists(typists, 1000 + TYPING_TIMING.expireMs).keys()]).toEqual([2]);
    // A new frame extends the time.
    typists = addTypist(typists, { id: 1, username: "Иван" }, 5000);
    expect([...expireTypists(typists, 7000).keys()]).toEqual([1, 2]);
    expect([...removeTypist(typists, 2).keys()]).toEqual([1]);
    expect(removeTypist(typists, 9)).toBe(typists);
  });

  it("recognises typing frames only", () => {
    expect(isTypingFrame({ type: "typing", user: { id: 1, username: "a" } })).toBe(true);
    expect(isTypingFrame({ type: "typing", user: { id: "1" } })).toBe(false);
    expect(isTypingFrame({ type: "message.created" })).toBe(false);
    expect(isTypingFrame(null)).toBe(false);
  });

  it("sends at most one typing frame per 3 s while the text changes", () => {
    let now = 0;
    let sent = 0;
    const throttle = createTypingThrottle(
      () => sent++,
      () => now,
    );
    throttle.typed();
    now = 1000;
    throttle.typed();
    now = 2999;
    throttle.typed();
    expect(sent).toBe(1);
    now = 3000;
    throttle.typed();
    expect(sent).toBe(2);
    throttle.reset();
    now = 3000 + TYPING_AFTER_MESSAGE_MS;
    throttle.typed();
    expect(sent).toBe(3);
  });

  it("after a message leaves, announces the next keystroke once the server will pass it on again", () => {
    // The server passes on one frame per 2 s: a frame sent at once after a quick message was dropped,
    // so the other member never saw a short follow-up being typed.
    let now = 0;
    let sent = 0;
    const timers: { at: number; run: () => void }[] = [];
    const throttle = createTypingThrottle(
      () => sent++,
      () => now,
      TYPING_TIMING.sendIntervalMs,
      (run, ms) => timers.push({ at: now + ms, run }),
    );
    throttle.typed();
    now = 500;
    throttle.reset();
    now = 600;
    throttle.typed();
    throttle.typed();
    expect(sent).toBe(1);
    expect(timers.map((timer) => timer.at)).toEqual([TYPING_AFTER_MESSAGE_MS]);
    expect(TYPING_AFTER_MESSAGE_MS).toBeGreaterThan(TYPING_TIMING.relayIntervalMs);
    now = TYPING_AFTER_MESSAGE_MS;
    timers[0]!.run();
    expect(sent).toBe(2);
    // Then one frame per 3 s again.
    now += 1000;
    throttle.typed();
    expect(sent).toBe(2);
    expect(timers).toHaveLength(1);
  });
});
