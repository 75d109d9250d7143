import { describe, expect, it } from "vitest";
import { createWorkGate } from "./gate.server";

/** A task that runs until `release` is called, counting how many run at once. */
function controlled(running: { now: number; peak: number }) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const task = async () => {
    running.now++;
    running.peak = Math.max(running.peak, running.now);
    await done;
    running.now--;
    return "ok";
  };
  return { task, release };
}

describe("createWorkGate (issue 13 item 6: the image endpoint's work per request)", () => {
  it("runs at most `concurrency` tasks at once, queues up to `queue` more, and refuses the rest with 503 image_busy", async () => {
    const gate = createWorkGate({ concurrency: 2, queue: 1 });
    const running = { now: 0, peak: 0 };
    const tasks = Array.from({ length: 4 }, () => controlled(running));
    const results = tasks.map((t) =>
      gate.run(t.task).then(
        (v) => v,
        (e: unknown) => e,
      ),
    );
    const refused = await results[3];
    expect(refused).toMatchObject({ code: "image_busy", status: 503 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(running.now).toBe(2);
    for (const t of tasks) t.release();
    expect(await Promise.all(results.slice(0, 3))).toEqual(["ok", "ok", "ok"]);
    expect(running.peak).toBe(2);
    // The gate is free again afterwards.
    expect(await gate.run(async () => "again")).toBe("again");
  });

  it("frees its slot when a task fails", async () => {
    const gate = createWorkGate({ concurrency: 1, queue: 0 });
    await expect(gate.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => 1)).toBe(1);
  });
});
