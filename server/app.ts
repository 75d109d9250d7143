/**
 * The React Router request handler, built by Vite into build/server/index.js (and loaded
 * through Vite in development). It hands every loader and action the database, the
 * configuration and the caller's address (app/lib/context.ts).
 */
import type { AppLoadContext } from "react-router";
import { createRequestHandler } from "@react-router/express";
import express from "express";
// A static import: given a function instead, React Router re-derives the whole route
// table on every request (several ms each). Development reloads this module on change.
import * as build from "virtual:react-router/server-build";
import { closeDatabase, getDatabase } from "~/db/database.server";
import { getConfig } from "~/lib/config.server";
import "~/lib/context";

export const app = express.Router();

app.use(
  createRequestHandler({
    build,
    async getLoadContext(req, res): Promise<AppLoadContext> {
      const { db } = await getDatabase();
      return { db, config: getConfig(), clientIp: req.ip ?? "unknown", cspNonce: res.locals.cspNonce as string };
    },
  }),
);

/** Opens, migrates and (when empty) seeds the database before the server listens. */
export async function start(): Promise<void> {
  await getDatabase();
}

/** Closes the database; called on SIGTERM after the HTTP server stops accepting. */
export async function stop(): Promise<void> {
  await closeDatabase();
}
