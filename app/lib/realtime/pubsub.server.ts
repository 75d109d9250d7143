/**
 * The process-to-process channel realtime frames travel on (issue 4, "Across processes").
 * Embedded PGlite is one process, so its pub/sub is an in-memory emitter; on PostgreSQL every
 * server process LISTENs and a publish is a NOTIFY, so a frame published by one process
 * reaches subscribers connected to any of them.
 */
import { EventEmitter } from "node:events";
import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { realtimeFrames } from "~/db/schema";
import { logger } from "~/lib/logger.server";

export interface PubSub {
  /** Sends `payload` (any JSON value) to every listener of every process, this one included. */
  publish(payload: unknown): Promise<void>;
  /** Calls `listener` with each payload published anywhere; returns the unsubscribe function. */
  listen(listener: (payload: unknown) => void): () => void;
  /** Resolves once this process receives what others publish (LISTEN is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Pub/subs per database; on globalThis so a development reload still finds the one openDatabase registered. */
const globalStore = globalThis as typeof globalThis & { __realtimePubSubs?: WeakMap<Db, PubSub> };
const registry = (globalStore.__realtimePubSubs ??= new WeakMap());

/** The pub/sub of database `db`: the one registered by openDatabase, or an in-memory one. */
export function pubSubOf(db: Db): PubSub {
  let found = registry.get(db);
  if (!found) registry.set(db, (found = memoryPubSub()));
  return found;
}

/**
 * Makes `pubsub` the pub/sub of database `db` (openDatabase: LISTEN/NOTIFY on PostgreSQL,
 * in-memory on PGlite); register before the database's hub is first used (realtimeHub).
 */
export function registerPubSub(db: Db, pubsub: PubSub): void {
  registry.set(db, pubsub);
}

/** One process: publish calls the listeners directly (asynchronously, as NOTIFY would). */
export function memoryPubSub(): PubSub {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(payload) {
      queueMicrotask(() => emitter.emit("frame", payload));
    },
    listen(listener) {
      emitter.on("frame", listener);
      return () => emitter.off("frame", listener);
    },
    async ready() {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** NOTIFY payloads must stay under 8000 bytes; larger ones go through realtime_frames. */
const MAX_INLINE_BYTES = 7500;
const NOTIFY_CHANNEL = "realtime";

interface ListenClient {
  listen(channel: string, onNotify: (payload: string) => void): Promise<{ unlisten(): Promise<void> }>;
  notify(channel: string, payload: string): Promise<unknown>;
}

/**
 * Runs the tasks given to it one after another, in the order given, whatever each task's
 * outcome; returns a promise of the task's own result.
 */
function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => {});
    return run;
  };
}

/**
 * PostgreSQL LISTEN/NOTIFY through postgres.js, which keeps one dedicated listening
 * connection and re-LISTENs after a reconnect. Frames too large for NOTIFY are stored in
 * realtime_frames and announced by id.
 *
 * Order: NOTIFYs sent over different pool connections commit, and so arrive, in any order, and
 * a stored frame needs a read on receipt; so this process sends one NOTIFY at a time in
 * publishing order and hands received frames on in arrival order. Frames one process publishes
 * reach every process in the order published (an edit before the delete that follows it).
 */
export function postgresPubSub(client: ListenClient, db: Db): PubSub {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const sending = serialQueue();
  const receiving = serialQueue();
  const deliver = async (raw: string) => {
    try {
      const message = JSON.parse(raw) as { inline?: unknown; ref?: number };
      if (message.ref !== undefined) {
        const [row] = await db.select({ payload: realtimeFrames.payload }).from(realtimeFrames).where(eq(realtimeFrames.id, message.ref));
        if (row) emitter.emit("frame", row.payload);
      } else {
        emitter.emit("frame", message.inline);
      }
    } catch (error) {
      logger.error({ err: error, area: "realtime" }, "a notification could not be delivered");
    }
  };
  const listening = client.listen(NOTIFY_CHANNEL, (raw) => void receiving(() => deliver(raw)));
  listening.catch((error: unknown) => logger.error({ err: error, area: "realtime" }, "LISTEN failed"));

  return {
    async publish(payload) {
      await listening;
      const inline = JSON.stringify({ inline: payload });
      await sending(async () => {
        if (Buffer.byteLength(inline) <= MAX_INLINE_BYTES) {
          await client.notify(NOTIFY_CHANNEL, inline);
          return;
        }
        const [row] = await db.insert(realtimeFrames).values({ payload }).returning({ id: realtimeFrames.id });
        await client.notify(NOTIFY_CHANNEL, JSON.stringify({ ref: row!.id }));
      });
    },
    listen(listener) {
      emitter.on("frame", listener);
      return () => emitter.off("frame", listener);
    },
    async ready() {
      await listening;
    },
    async close() {
      emitter.removeAllListeners();
      await (await listening.catch(() => null))?.unlisten().catch(() => {});
    },
  };
}

/** Deletes stored large frames older than an hour (every process has read them by then). */
export async function purgeRealtimeFrames(db: Db): Promise<void> {
  await db.delete(realtimeFrames).where(lt(realtimeFrames.createdAt, sql`now() - interval '1 hour'`));
}
