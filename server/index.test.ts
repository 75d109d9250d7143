/**
 * server/index.js fails fast on a bad configuration (issue 15): before opening the database
 * or loading the build, it exits with status 1 and one line per invalid variable.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Runs `node server/index.js` with `env` on top of a clean environment; resolves with its exit code and output. */
function run(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["server/index.js"], {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: "tests/.tmp/never-created", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("server/index.js with an invalid configuration", () => {
  it("exits 1 naming each bad variable and what is wrong, without a stack trace", async () => {
    const { code, output } = await run({ PORT: "eighty", TRUST_PROXY: "proxy.internal" });
    expect(code).toBe(1);
    expect(output).toContain('PORT: must be a whole number from 0 to 65535 (got "eighty")');
    expect(output).toContain("TRUST_PROXY: must be true, false, a number of hops");
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain("Server is listening");
  });
});
