/**
 * `npm run db:reseed`: wipes the community and seeds the demo data again, on the database
 * the configuration selects (DATABASE_URL or DATA_DIR's PGlite). Stop the server first when
 * it uses PGlite: only one process may open its directory.
 */
import path from "node:path";
import { getConfig } from "~/lib/config.server";
import { openDatabase } from "./client.server";
import { seedDemo, wipeCommunity } from "./seed/seed.server";

const config = getConfig();
const handle = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, "pglite") });
try {
  await wipeCommunity(handle.db);
  const result = await seedDemo(handle.db, config);
  console.log(`Reseeded: ${result.members} members, ${result.posts} posts.`);
} finally {
  await handle.close();
}
