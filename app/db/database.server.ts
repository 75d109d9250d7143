/**
 * The process-wide database: opened once, migrated, seeded with the demo community when
 * empty (unless SEED_DEMO=0). Kept on globalThis so Vite's module reloads in development
 * never open PGlite's data directory twice.
 */
import path from "node:path";
import { getConfig } from "~/lib/config.server";
import { purgeExpiredLimits } from "~/lib/rate-limit.server";
import { purgeExpiredSessions } from "~/lib/session.server";
import { purgeRealtimeFrames } from "~/lib/realtime/pubsub.server";
import { openDatabase, type DatabaseHandle } from "./client.server";
import { seedDemoIfEmpty } from "./seed/seed.server";
import { backfillUsernameSkeletons } from "~/domain/users/username-skeleton.server";
import { registerSubscribers } from "~/domain/subscribers.server";
import { recookStaleRows } from "~/domain/cooked/cooked.server";
import { startMoneyScheduler } from "~/domain/ledger/scheduler.server";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { logger } from "~/lib/logger.server";
import { ensureDefaultFaq } from "~/domain/faq/default-faq.server";
import { purgeOldPlays } from "~/domain/music/tracks.server";

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** The re-cook job's pause between batches (ms), so the site's requests come first. */
const RECOOK_PAUSE_MS = 50;

const globalStore = globalThis as typeof globalThis & {
  __appDatabase?: Promise<DatabaseHandle>;
  __stopMoneyScheduler?: () => Promise<void>;
  __stopRecooking?: () => void;
};

/** The opened, migrated database of this process. Rejects if it cannot be opened or migrated. */
export function getDatabase(): Promise<DatabaseHandle> {
  globalStore.__appDatabase ??= open();
  return globalStore.__appDatabase;
}

async function open(): Promise<DatabaseHandle> {
  const config = getConfig();
  const handle = await openDatabase({
    ...(config.databaseUrl ? { url: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, "pglite") }),
    // Under the migration lock: processes starting together on an empty database seed it once.
    async setup({ db }) {
      registerSubscribers(db);
      // The site's own FAQ, once, with or without the demo community (app/domain/faq/default-faq.server.ts).
      await ensureDefaultFaq(db);
      if (config.seedDemo) {
        const seeded = await seedDemoIfEmpty(db, config);
        if (seeded) {
          logger.info(`Seeded the demo community: ${seeded.members} members, ${seeded.posts} posts.`);
          logger.warn("The demo accounts' passwords are public (README). For a real site start with SEED_DEMO=0.");
        }
      }
      // Members from before the username skeleton (and the demo ones) get theirs (issue 13 item 10).
      await backfillUsernameSkeletons(db);
    },
  });
  const purge = async () => {
    await purgeExpiredSessions(handle.db);
    await purgeExpiredLimits(handle.db);
    await purgeRealtimeFrames(handle.db);
    await purgeOldPlays(handle.db);
  };
  await purge();
  // Expired sessions and rate-limit counters are dead weight: sweep them hourly.
  setInterval(
    () => purge().catch((error: unknown) => logger.error({ err: error }, "purging expired sessions, limits and frames failed")),
    PURGE_INTERVAL_MS,
  ).unref();
  // Stored Markdown cooked by another renderer version or settings is brought up to date in the
  // background; until then such rows are cooked when read (app/domain/cooked/cooked.server.ts).
  const recooking = new AbortController();
  globalStore.__stopRecooking = () => recooking.abort();
  recookStaleRows(handle.db, { pauseMs: RECOOK_PAUSE_MS, signal: recooking.signal }).catch((error: unknown) =>
    logger.error({ err: error, area: "cooked-markdown" }, "re-cooking stored Markdown failed"),
  );
  // Held transfers and, later, deal and deposit deadlines are released from the database's rows.
  globalStore.__stopMoneyScheduler = startMoneyScheduler(handle.db);
  return handle;
}

/** Closes the database if it was opened (graceful shutdown). */
export async function closeDatabase(): Promise<void> {
  const pending = globalStore.__appDatabase;
  globalStore.__appDatabase = undefined;
  // A money job under way finishes before the database closes (scheduler.server.ts).
  const schedulerStopped = globalStore.__stopMoneyScheduler?.();
  globalStore.__stopMoneyScheduler = undefined;
  globalStore.__stopRecooking?.();
  await schedulerStopped;
  if (!pending) return;
  const handle = await pending;
  // docs/product/conversations.md#online: this process's members are no longer connected through it.
  await realtimeHub(handle.db)
    .close()
    .catch((error: unknown) => logger.error({ err: error }, "clearing realtime presence failed"));
  await handle.close();
}
