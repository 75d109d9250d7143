/**
 * The React Router request handler, built by Vite into build/server/index.js (and loaded
 * through Vite in development). It hands every loader and action the database, the
 * configuration, the caller's address and the request's id and logger (app/lib/context.ts).
 */
import type { Server } from "node:http";
import type { AppLoadContext } from "react-router";
import { createRequestHandler } from "@react-router/express";
import express from "express";
// Types only: req.id and req.log, which server/http-logger.js sets.
import type {} from "pino-http";
// A static import: given a function instead, React Router re-derives the whole route
// table on every request (several ms each). Development reloads this module on change.
import * as build from "virtual:react-router/server-build";
import { closeDatabase, getDatabase } from "~/db/database.server";
import { getConfig } from "~/lib/config.server";
import { reportUnexpectedErrorsTo } from "~/lib/errors";
import { currentLogger, logger } from "~/lib/logger.server";
import { closeEventStreams } from "~/lib/realtime/sse.server";
import { attachWebSocketServer, type WebSocketTransport } from "~/lib/realtime/ws.server";
import "~/lib/context";

export const app = express.Router();

// A 500 from an /api call is logged with the request's id.
reportUnexpectedErrorsTo((error) => currentLogger().error({ err: error }, "an /api call failed"));

app.use(
  createRequestHandler({
    build,
    async getLoadContext(req, res): Promise<AppLoadContext> {
      const { db } = await getDatabase();
      // server/http-logger.js gives every request its id and logger; the fallback serves a
      // handler mounted without it.
      const requestId = String(req.id ?? "");
      const log = req.log ?? logger.child({ reqId: requestId });
      return { db, config: getConfig(), clientIp: req.ip ?? "unknown", cspNonce: res.locals.cspNonce as string, requestId, log };
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

let webSocket: WebSocketTransport | undefined;

/**
 * Serves the realtime websocket at /api/ws on `server` (issue 4); call once, after listen.
 * Server-sent events need nothing here: /api/sse is an ordinary route.
 */
export function attachRealtime(server: Server): void {
  webSocket ??= attachWebSocketServer(server, async () => (await getDatabase()).db);
}

/**
 * Ends every realtime connection of this process: websockets close with 1001 (going away, the
 * client reconnects elsewhere) and event streams end, so that server.close() need not wait for
 * them. Called on SIGTERM before the HTTP server closes.
 */
export function closeRealtime(): void {
  webSocket?.close();
  closeEventStreams();
}
