/**
 * The API suites' fetch gives up an idle keep-alive connection after 10 s, well before the server
 * does (65 s, server/index.js). Left to itself, fetch reuses a connection until a second before the
 * server's hinted timeout; a suite that spends a minute elsewhere (a server of its own) and then
 * asks the shared server again could send on a connection the server was closing on a loaded
 * machine, and the request failed with ECONNRESET (seen once in CI, 2026-12-05).
 */
import { Agent, setGlobalDispatcher } from "undici";

// Setup files run before every file, and the api project's files share a worker: one agent per worker.
const worker = globalThis as { apiTestsAgent?: Agent };
if (!worker.apiTestsAgent) {
  worker.apiTestsAgent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 10_000 });
  setGlobalDispatcher(worker.apiTestsAgent);
}
