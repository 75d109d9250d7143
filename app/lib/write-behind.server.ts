/**
 * A write-behind queue per database (docs/product/engineering.md#speed): counts a page view or an
 * ad impression in memory, merged by key, and writes the queue in one call every `intervalMs`, or
 * at once when `maxQueued` items have been added since the last write. Used by post views
 * (app/domain/posts/view-buffer.server.ts) and ad impressions
 * (app/domain/ads/impression-buffer.server.ts). Items queued by a process killed before its next
 * write are lost: `intervalMs` of them at most.
 */
import type { Db } from "~/db/client.server";

export interface WriteBehindOptions<T> {
  /** How long an item waits at most before it is written (ms). */
  intervalMs: number;
  /** Items added (merged or not) that trigger a write before the interval ends. */
  maxQueued: number;
  /** Merges an item into the one already queued under its key (default: the first one stays). */
  merge?: (queued: T, added: T) => T;
  /** Writes a batch; must not throw (a failed write is the caller's to log). */
  write: (db: Db, batch: T[]) => Promise<void>;
}

export interface WriteBehindQueue<T> {
  /** Queues `item` under `key` for `db`; never throws. */
  add(db: Db, key: string, item: T): void;
  /** Writes everything queued for `db`; resolves once written, after any write already on its way. */
  flush(db: Db): Promise<void>;
}

interface Queue<T> {
  items: Map<string, T>;
  added: number;
  timer: NodeJS.Timeout | null;
  writing: Promise<void>;
}

/** A queue as WriteBehindOptions say; each database has its own. */
export function writeBehindQueue<T>(options: WriteBehindOptions<T>): WriteBehindQueue<T> {
  const queues = new WeakMap<Db, Queue<T>>();
  const queueOf = (db: Db): Queue<T> => {
    let queue = queues.get(db);
    if (!queue) queues.set(db, (queue = { items: new Map(), added: 0, timer: null, writing: Promise.resolve() }));
    return queue;
  };
  const flush = (db: Db): Promise<void> => {
    const queue = queueOf(db);
    if (queue.timer) clearTimeout(queue.timer);
    queue.timer = null;
    const batch = [...queue.items.values()];
    queue.items.clear();
    queue.added = 0;
    if (batch.length > 0) queue.writing = queue.writing.then(() => options.write(db, batch));
    return queue.writing;
  };
  return {
    add(db, key, item) {
      const queue = queueOf(db);
      const queued = queue.items.get(key);
      queue.items.set(key, queued === undefined ? item : options.merge ? options.merge(queued, item) : queued);
      queue.added += 1;
      if (queue.added >= options.maxQueued) void flush(db);
      else queue.timer ??= setTimeout(() => void flush(db), options.intervalMs).unref();
    },
    flush,
  };
}
