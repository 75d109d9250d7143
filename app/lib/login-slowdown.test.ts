import { describe, expect, it } from "vitest";
import { RateLimited, retryAfterHeaders } from "./errors";
import { createLoginWaitingRoom, LOGIN_BUSY_CODE, LOGIN_WAITING_LIMITS } from "./login-slowdown";

/** A waiting room whose sleeps end only when the test says so: deterministic, no real time passes. */
function controlledRoom(limits: { perAccount: number; perProcess: number } = LOGIN_WAITING_LIMITS) {
  const pending: (() => void)[] = [];
  const room = createLoginWaitingRoom({
    delayMs: 2000,
    ...limits,
    sleep: () => new Promise<void>((resolve) => pending.push(resolve)),
  });
  const releaseAll = () => pending.splice(0).forEach((resolve) => resolve());
  return { room, pending, releaseAll };
}

describe("login waiting room (issue 13 item 2: the slow-down holds no unbounded requests)", () => {
  it("lets 5 attempts on one account wait and refuses the 6th at once with 429 login_busy and Retry-After", async () => {
    const { room, pending, releaseAll } = controlledRoom();
    const waiting = Array.from({ length: 5 }, () => room.wait("user:1"));
    expect(room.waiting("user:1")).toBe(5);
    const refusal = await room.wait("user:1").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimited);
    expect(refusal).toMatchObject({ status: 429, code: LOGIN_BUSY_CODE, message: expect.stringContaining("Подождите") });
    expect(retryAfterHeaders(refusal)).toEqual({ "Retry-After": "2" });
    // The refused attempt never slept; another account still waits as usual.
    expect(pending).toHaveLength(5);
    const other = room.wait("user:2");
    expect(room.waiting("user:2")).toBe(1);
    releaseAll();
    await Promise.all([...waiting, other]);
    expect(room.waiting()).toBe(0);
  });

  it("frees a place as soon as a waiting attempt is done", async () => {
    const { room, pending } = controlledRoom();
    const waiting = Array.from({ length: 5 }, () => room.wait("user:1"));
    pending.shift()!();
    await waiting[0];
    expect(room.waiting("user:1")).toBe(4);
    const sixth = room.wait("user:1");
    expect(room.waiting("user:1")).toBe(5);
    pending.splice(0).forEach((resolve) => resolve());
    await Promise.all([...waiting, sixth]);
  });

  it("refuses at once when 100 attempts wait in the process, whatever the account", async () => {
    const { room, releaseAll } = controlledRoom();
    const waiting = Array.from({ length: 100 }, (_, i) => room.wait(`user:${i % 25}`));
    expect(room.waiting()).toBe(100);
    await expect(room.wait("user:fresh")).rejects.toMatchObject({ status: 429, code: LOGIN_BUSY_CODE });
    releaseAll();
    await Promise.all(waiting);
    await expect(Promise.race([room.wait("user:fresh").then(() => "slept"), Promise.resolve("waiting")])).resolves.toBe("waiting");
    releaseAll();
  });

  it("gives the place back when the sleep fails", async () => {
    const room = createLoginWaitingRoom({ delayMs: 10, perAccount: 1, perProcess: 1, sleep: () => Promise.reject(new Error("aborted")) });
    await expect(room.wait("user:1")).rejects.toThrow("aborted");
    expect(room.waiting()).toBe(0);
  });
});
