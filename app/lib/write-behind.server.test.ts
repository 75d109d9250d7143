import { afterEach, describe, expect, it, vi } from "vitest";
import type { Db } from "~/db/client.server";
import { writeBehindQueue } from "./write-behind.server";

afterEach(() => {
  vi.useRealTimers();
});

/** A queue whose writes are recorded; `db` is only the key its queue is kept under. */
function recorded(maxQueued = 100) {
  const writes: { db: Db; batch: { key: string; n: number }[] }[] = [];
  const queue = writeBehindQueue<{ key: string; n: number }>({
    intervalMs: 1_000,
    maxQueued,
    merge: (queued, added) => ({ key: queued.key, n: queued.n + added.n }),
    write: async (db, batch) => {
      writes.push({ db, batch });
    },
  });
  return { queue, writes };
}

describe("the write-behind queue", () => {
  it("writes what was queued once, merged by key, when the interval ends", async () => {
    vi.useFakeTimers();
    const { queue, writes } = recorded();
    const db = {} as Db;
    queue.add(db, "a", { key: "a", n: 1 });
    queue.add(db, "a", { key: "a", n: 2 });
    queue.add(db, "b", { key: "b", n: 5 });
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(writes).toEqual([
      {
        db,
        batch: [
          { key: "a", n: 3 },
          { key: "b", n: 5 },
        ],
      },
    ]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(writes).toHaveLength(1);
  });

  it("writes at once when enough items were added, and keeps each database's queue apart", async () => {
    const { queue, writes } = recorded(3);
    const first = {} as Db;
    const second = {} as Db;
    queue.add(second, "x", { key: "x", n: 1 });
    for (let i = 0; i < 3; i += 1) queue.add(first, "a", { key: "a", n: 1 });
    await queue.flush(first);
    expect(writes).toEqual([{ db: first, batch: [{ key: "a", n: 3 }] }]);
    await queue.flush(second);
    expect(writes.at(-1)).toEqual({ db: second, batch: [{ key: "x", n: 1 }] });
  });

  it("keeps the first item of a key when no merge is given, and a flush with nothing queued writes nothing", async () => {
    const writes: string[][] = [];
    const queue = writeBehindQueue<string>({ intervalMs: 1_000, maxQueued: 100, write: async (_db, batch) => void writes.push(batch) });
    const db = {} as Db;
    queue.add(db, "k", "first");
    queue.add(db, "k", "second");
    await queue.flush(db);
    await queue.flush(db);
    expect(writes).toEqual([["first"]]);
  });
});
