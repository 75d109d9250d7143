/**
 * Vitest global setup of the "domain" and "domain-mocks" projects: migrates one template database
 * for the whole run, which every test file then copies (tests/setup/database.ts) instead of
 * migrating its own (docs/product/engineering.md#tests). On PGlite the template is a dump of the
 * migrated data directory in a file; on PostgreSQL (TEST_DATABASE_URL) a database of its own,
 * dropped at the end. Its name is unique per run, so runs sharing one PostgreSQL server do not meet.
 *
 * Vitest runs a global setup once per project that names it, in its one main process: the two
 * projects share the template (the first makes it, the last teardown removes it), so the run
 * migrates once, not twice.
 */
import { mkdirSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { ProvidedContext } from "vitest";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/db/client.server";
import { uniqueDatabaseName } from "./database";

type Template = NonNullable<ProvidedContext["databaseTemplate"]>;

/** The run's template and how to remove it. */
interface Made {
  template: Template;
  remove(): Promise<void>;
}

const shared = globalThis as typeof globalThis & { __domainTemplate?: { made: Promise<Made>; users: number } };

export default async function setup(project: TestProject) {
  const run = (shared.__domainTemplate ??= { made: makeTemplate(), users: 0 });
  run.users += 1;
  // A failed migration is not kept for a later run in the same process (watch mode) to inherit.
  const { template, remove } = await run.made.catch((error: unknown) => {
    if (shared.__domainTemplate === run) delete shared.__domainTemplate;
    throw error;
  });
  project.provide("databaseTemplate", template);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    delete shared.__domainTemplate;
    await remove();
  };
}

async function makeTemplate(): Promise<Made> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase();
    const dump = await (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
    await handle.close();
    const dir = path.resolve("tests/.tmp");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${uniqueDatabaseName("pglite-template")}.tar`);
    await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
    return { template: { kind: "pglite", file }, remove: () => rm(file, { force: true }) };
  }
  const name = uniqueDatabaseName("test_template");
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // Closed before the copies start: PostgreSQL copies a template only while nobody is connected to it.
  const handle = await openDatabase({ url: url.toString(), maxConnections: 1 });
  await handle.close();
  return {
    template: { kind: "postgres", name },
    async remove() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
