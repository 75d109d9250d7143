import type { Db } from "~/db/client.server";
import type { Logger } from "pino";
import type { AppConfig } from "~/lib/config.server";

/** What the custom server hands every loader and action (server/app.ts). */
export interface AppContext {
  db: Db;
  config: AppConfig;
  /** The caller's address as Express sees it (honours X-Forwarded-For only behind a trusted proxy). */
  clientIp: string;
  /** The nonce of this response's Content-Security-Policy, for inline scripts. */
  cspNonce: string;
  /** This request's id: a trusted proxy's X-Request-Id or a new UUID; answered in X-Request-Id. */
  requestId: string;
  /** The request's logger: every line carries `reqId` (app/lib/logger.server.js). */
  log: Logger;
}

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
