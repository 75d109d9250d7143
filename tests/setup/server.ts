/**
 * Starts the built server (`node server/index.js`, production mode) on a free port with its
 * own fresh DATA_DIR, for HTTP tests and benchmarks. Run `npm run build` first.
 *
 * A server starting on an empty DATA_DIR migrates and seeds its database for seconds. The api
 * project's global setup (tests/setup/api-global.ts) therefore does that once per kind of data
 * (demo community or none) and every server of the run starts from a copy of that DATA_DIR
 * (docs/product/engineering.md#tests): the same data a fresh start would have made.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The DATA_DIR templates of the run (api-global.ts). */
    serverDataTemplates?: ServerDataTemplates;
  }
}

/** Stopped servers' DATA_DIRs to copy: with the demo community (SEED_DEMO=1) and without. */
export interface ServerDataTemplates {
  seeded: string;
  empty: string;
}

/** The DATA_DIR templates of this Vitest run, if its global setup made them. */
function dataTemplates() {
  try {
    return inject("serverDataTemplates");
  } catch {
    return undefined;
  }
}

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  process: ChildProcess;
  /** Sends SIGTERM, waits for the exit and removes DATA_DIR; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Everything the server printed so far. */
  output(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Spawns the server and resolves once it prints that it listens (rejects after `timeoutMs`,
 * default 60 s, or on exit). On PGlite (no DATABASE_URL) its DATA_DIR starts as a copy of the
 * run's template for its SEED_DEMO, when there is one; `templates` overrides the run's.
 */
export async function startServer(
  env: Record<string, string> = {},
  { templates = dataTemplates(), timeoutMs = 180_000 }: { templates?: ServerDataTemplates; timeoutMs?: number } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "shodka-test-"));
  if (templates && !(env.DATABASE_URL ?? process.env.DATABASE_URL))
    cpSync(env.SEED_DEMO === "0" ? templates.empty : templates.seeded, dataDir, { recursive: true });
  const child = spawn(process.execPath, ["server/index.js"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    // Cheap password hashes unless `env` says otherwise (the benchmarks measure the real cost):
    // the suites register thousands of members (app/lib/password.server.ts).
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED_DEMO: "1",
      PASSWORD_HASHING: "fast-insecure-for-tests",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running (nor its DATA_DIR behind) when the caller gives up on it.
      child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`server did not start in ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = () => {
      if (output.includes("Server is listening")) {
        clearTimeout(timer);
        child.off("exit", onExit);
        // Searched once more for every line a busy server logs, the growing output was copied
        // whole each time (a search flattens the string): under bench/http's load the process
        // reading it, the load generator itself, spent its time there.
        child.stdout!.off("data", onData);
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    };
    child.stdout!.on("data", onData);
    child.on("exit", onExit);
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}

/**
 * Starts a server on an empty DATA_DIR, or on a copy of the DATA_DIR `from` (SEED_DEMO from `env`,
 * demo community by default), lets it migrate and seed, stops it and returns that DATA_DIR for
 * `startServer` to copy. The caller removes it. It waits longer than a start from a template may:
 * this start does the slow part.
 */
export async function makeDataTemplate(env: Record<string, string> = {}, from?: string): Promise<string> {
  const server = await startServer(env, { templates: from ? { seeded: from, empty: from } : undefined, timeoutMs: 180_000 });
  const template = mkdtempSync(path.join(tmpdir(), "shodka-template-"));
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGTERM");
  await exited;
  if (server.process.exitCode !== 0) throw new Error(`the template server exited with ${server.process.exitCode}:\n${server.output()}`);
  cpSync(server.dataDir, template, { recursive: true });
  rmSync(server.dataDir, { recursive: true, force: true });
  return template;
}
