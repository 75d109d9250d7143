/**
 * The WEB_CONCURRENCY primary (server/primary.js; issue 12) exits once every worker has, whichever
 * of a worker's two endings Node reports first. Node's cluster emits 'exit' when the worker's
 * process ends and 'disconnect' when its IPC channel closes, in either order, and takes the worker
 * off `cluster.workers` only after both. When every 'exit' came before its 'disconnect' the primary
 * never exited itself: its event loop ran dry under the pending top-level await and Node ended it
 * with code 13 (seen in a CI rehearsal of tests/cluster/web-concurrency.test.ts).
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { runPrimary } from "./primary.js";

/** A stand-in for node:cluster whose workers end as `order` says, one event at a time. */
function fakeCluster() {
  const events = new EventEmitter();
  const workers: Record<string, { id: number; process: { pid: number; kill: (signal: string) => void } }> = {};
  const killed: string[] = [];
  let nextId = 1;
  return {
    killed,
    cluster: {
      workers,
      on: (name: string, listener: (...args: unknown[]) => void) => events.on(name, listener),
      fork() {
        const id = nextId++;
        const worker = { id, process: { pid: 1000 + id, kill: (signal: string) => killed.push(`${id}:${signal}`) } };
        workers[id] = worker;
        return worker;
      },
    },
    /** Worker `id`'s process ends with `code`: 'exit' is emitted, and 'disconnect' before it if asked. */
    end(id: number, code: number | null, disconnectFirst: boolean, signal: string | null = null) {
      const worker = workers[id]!;
      if (disconnectFirst) delete workers[id];
      events.emit("exit", worker, code, signal);
      if (!disconnectFirst) delete workers[id];
    },
  };
}

/** Starts a primary of two workers on a fake cluster; returns it with the exit codes it asked for and its SIGTERM. */
function startPrimary() {
  const fake = fakeCluster();
  const exits: number[] = [];
  const signals = new EventEmitter();
  const logger = { info: () => {}, error: () => {} };
  void runPrimary(2, { cluster: fake.cluster as never, logger: logger as never, signals: signals as never, exit: (code) => exits.push(code) });
  return { fake, exits, terminate: () => signals.emit("SIGTERM") };
}

describe("the WEB_CONCURRENCY primary", () => {
  it("passes SIGTERM to every worker and exits 0 once both have ended, even when each 'exit' comes before its 'disconnect'", () => {
    const { fake, exits, terminate } = startPrimary();
    terminate();
    expect(fake.killed).toEqual(["1:SIGTERM", "2:SIGTERM"]);
    fake.end(1, 0, false);
    expect(exits).toEqual([]);
    fake.end(2, 0, false);
    expect(exits).toEqual([0]);
  });

  it("exits 0 when the workers disconnect before they exit", () => {
    const { fake, exits, terminate } = startPrimary();
    terminate();
    fake.end(1, 0, true);
    fake.end(2, 0, true);
    expect(exits).toEqual([0]);
  });

  it("exits 0 when a worker still starting up is ended by the SIGTERM passed on to it", () => {
    const { fake, exits, terminate } = startPrimary();
    terminate();
    fake.end(1, 0, false);
    fake.end(2, null, false, "SIGTERM");
    expect(exits).toEqual([0]);
  });

  it("stops the other worker and exits 1 when a worker dies unasked", () => {
    const { fake, exits } = startPrimary();
    fake.end(1, 1, false);
    expect(fake.killed).toEqual(["2:SIGTERM"]);
    fake.end(2, 0, false);
    expect(exits).toEqual([1]);
  });
});
