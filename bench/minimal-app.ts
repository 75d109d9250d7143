/**
 * The benchmarks' minimal React Router app (bench/minimal-router: a page, a resource route and the
 * markup route, no data, no styles), built and served as the site is: its own process,
 * NODE_ENV=production, react-router's production bundle (bench/minimal-router/server.ts).
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { freePort } from "../tests/setup/server";

export interface MinimalApp {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The serving process's id (bench/process-cpu.ts reads its CPU time). */
  pid: number;
  /** bench/minimal-router, whose build/client holds the page's scripts. */
  dir: string;
  stop(): void;
}

/**
 * Builds bench/minimal-router and starts its server with `env` added to this process's
 * environment; resolves once it listens. Stopped by stop(), or when this process exits.
 * Throws when the build fails or the server exits before listening.
 */
export async function startMinimalApp(env: Record<string, string> = {}): Promise<MinimalApp> {
  const dir = path.resolve(import.meta.dirname, "minimal-router");
  execFileSync("npx", ["react-router", "build", dir], { stdio: "ignore" });
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dir, "build/server/index.js")], {
    env: { ...process.env, ...env, NODE_ENV: "production", PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await Promise.race([
    once(child.stdout!, "data"),
    once(child, "exit").then(([code]) => Promise.reject(new Error(`the minimal page's server exited (${code}) before listening`))),
  ]);
  const stop = () => child.kill();
  // Also stopped when a run fails before its measurements.
  process.on("exit", stop);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, dir, stop };
}
