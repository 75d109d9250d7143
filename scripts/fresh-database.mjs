#!/usr/bin/env node
/**
 * `node scripts/fresh-database.mjs postgres://user@host:5432/name`: drops the database `name`
 * (closing its connections) and creates it empty, through the server's `postgres` database.
 * The Playwright journeys' server starts from it when E2E_DATABASE_URL is set (playwright.config.ts).
 */
import postgres from "postgres";

const target = new URL(process.argv[2] ?? "");
const name = decodeURIComponent(target.pathname.slice(1));
if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
  console.error(`fresh-database: "${name}" is not a plain database name`);
  process.exit(1);
}
const maintenance = new URL(target);
maintenance.pathname = "/postgres";
const sql = postgres(maintenance.href, { max: 1, onnotice: () => {} });
try {
  await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await sql.unsafe(`CREATE DATABASE ${name}`);
} finally {
  await sql.end();
}
