/**
 * A database of its own for one suite of the cluster step, on the PostgreSQL server of
 * TEST_DATABASE_URL: a unique name from `prefix`, created by create() and dropped, with any
 * connection still open to it, by drop(), which also closes the admin connection.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";

export interface ScratchDatabase {
  /** The database's URL, for DATABASE_URL or openDatabase. */
  url: string;
  create(): Promise<void>;
  drop(): Promise<void>;
}

export function scratchDatabase(prefix: string): ScratchDatabase {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("the cluster suite needs TEST_DATABASE_URL (a PostgreSQL server)");
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async create() {
      await admin.unsafe(`create database "${name}"`);
    },
    async drop() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
