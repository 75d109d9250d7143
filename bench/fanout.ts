/**
 * bench/fanout: realtime fan-out of one group message to 1 000 connected subscribers (issue 4,
 * "Done when"), over server-sent events (/api/sse) and over the websocket (/api/ws), each
 * reported beside a baseline measured in the same run by the same clients: a bare node:http
 * SSE broadcast and a bare `ws` broadcast (bench/fanout-baseline.mjs, its own process like the
 * real server). For each of the four targets:
 *
 *   - latency p50 / p99 (ms) from the send (just before the POST) to the receipt of the frame
 *     by each subscriber, over BENCH_LATENCY_MESSAGES messages sent one at a time;
 *   - sustained messages/s and frames/s: BENCH_THROUGHPUT_MESSAGES messages sent by
 *     BENCH_SENDERS concurrent senders, each sending its next one once the last is acknowledged,
 *     until every subscriber has received every message;
 *   - server CPU time (user + system, /proc/<pid>/stat) per delivered frame over that phase:
 *     the server's own cost even when the single client process is what limits frames/s;
 *   - memory per idle connection: the growth of the server's RSS (/proc/<pid>/status) and of its
 *     JS heap in use, both read after a full garbage collection requested through the server's
 *     inspector (--inspect), divided by the number of subscribers. Each target runs in a fresh
 *     server process so that no earlier phase distorts it.
 *
 * The subscribers listen to the public conversation (conversation:group:{id}; any member may,
 * whereas a group holds at most 100). Members are inserted straight into the database with
 * their apiTokens, then the built server is started against it: PGlite in a temporary
 * DATA_DIR, or a fresh PostgreSQL database on BENCH_DATABASE_URL (dropped afterwards).
 *
 *   npm run build && npm run bench:fanout
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:fanout
 *   BENCH_SUBSCRIBERS=1000 BENCH_LATENCY_MESSAGES=20 BENCH_THROUGHPUT_MESSAGES=200 BENCH_SENDERS=10
 *   BENCH_CPU_PROFILE=/tmp/profiles …   also writes each server's CPU profile of its throughput phase
 *
 * Not part of `npm test`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { get } from "node:http";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase } from "../app/db/client.server";
import { conversations, sessions, users } from "../app/db/schema";
import { generateApiToken } from "../app/domain/users/sessions.server";
import { hashPassword } from "../app/lib/password.server";
import { Client, csrfFromHtml } from "../tests/api/client";
import { cpuMs } from "./process-cpu";
import WebSocket from "ws";
import { freePort, startServer, type RunningServer } from "../tests/setup/server";
import { waitFor } from "../tests/setup/wait";

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const LATENCY_MESSAGES = Number(process.env.BENCH_LATENCY_MESSAGES ?? 20);
const WARMUP_MESSAGES = 3;
const THROUGHPUT_MESSAGES = Number(process.env.BENCH_THROUGHPUT_MESSAGES ?? 200);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 10);
/** Chat messages are limited to 20 per 30 s per member: spread the sends over enough accounts. */
const SENDER_ACCOUNTS = Math.max(SENDERS, Math.ceil((2 * (WARMUP_MESSAGES + LATENCY_MESSAGES + THROUGHPUT_MESSAGES)) / 10));
const CONNECT_CONCURRENCY = 50;
const PASSWORD = "bench-password-123";
const databaseUrl = process.env.BENCH_DATABASE_URL;
const TRANSPORTS = (process.env.BENCH_TRANSPORTS ?? "sse,ws").split(",") as Transport[];
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE;

type Transport = "sse" | "ws";

interface Figures {
  transport: Transport;
  server: string;
  latency: number[];
  acks: number[];
  messagesPerSecond: number;
  framesPerSecond: number;
  /** Server CPU time (user + system) per delivered frame during the throughput phase, µs. */
  cpuPerFrameUs: number;
  bytesPerConnection: number;
  /** JS heap in use after a full GC, per idle connection (bytes). */
  heapPerConnection: number;
  errors: number;
}

/** A running server to measure: connect subscribers, send a message. */
interface Target {
  name: string;
  pid: number;
  /** The server's inspector port (--inspect), used to collect garbage before reading its memory. */
  inspectorPort: number;
  connect(transport: Transport, index: number, onMessage: OnMessage): Promise<Subscriber>;
  /** Sends message `n` through sender account `n % SENDER_ACCOUNTS`; resolves with its id once acknowledged. */
  send(n: number): Promise<number>;
  stop(): Promise<unknown>;
}

interface Member {
  id: number;
  email: string;
  apiToken: string;
}

const AUTHOR = { id: 1, username: "bench_sender", displayName: null, image: "/uploads/avatars/bench.svg", ranks: [] };
const bodyOf = (n: number) => `Сообщение №${n}: продам видеокарту RTX 4070, самовывоз из центра, торг уместен.`;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

/** A DevTools protocol session with a process's inspector: `call` sends one method and resolves with its result. */
async function inspectorSession(port: number) {
  const [page] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(page!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let lastId = 0;
  const call = <T = Record<string, number>>(method: string, params?: object) =>
    new Promise<T>((resolve) => {
      const id = ++lastId;
      const onMessage = (raw: Buffer) => {
        const reply = JSON.parse(raw.toString()) as { id?: number; result: T };
        if (reply.id !== id) return;
        socket.off("message", onMessage);
        resolve(reply.result);
      };
      socket.on("message", onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, close: () => socket.close() };
}

/**
 * Runs a full garbage collection in the server through its inspector (so memory readings count
 * live objects, not garbage) and returns the JS heap in use (bytes).
 */
async function collectGarbage(port: number): Promise<number> {
  const session = await inspectorSession(port);
  try {
    await session.call("HeapProfiler.collectGarbage");
    await session.call("HeapProfiler.collectGarbage");
    return (await session.call("Runtime.getHeapUsage")).usedSize!;
  } finally {
    session.close();
  }
}

/**
 * With BENCH_CPU_PROFILE=<folder>, profiles the server's CPU through its inspector while `phase`
 * runs and writes the profile there as `<label>.cpuprofile` (open it in Chrome's DevTools).
 * Without it, just runs `phase`.
 */
async function profiled<T>(port: number, label: string, phase: () => Promise<T>): Promise<T> {
  if (!CPU_PROFILE_DIR) return phase();
  const session = await inspectorSession(port);
  try {
    await session.call("Profiler.enable");
    await session.call("Profiler.start");
    const result = await phase();
    const { profile } = await session.call<{ profile: unknown }>("Profiler.stop");
    mkdirSync(CPU_PROFILE_DIR, { recursive: true });
    const file = path.join(CPU_PROFILE_DIR, `${label.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`  CPU profile of the throughput phase: ${file}`);
    return result;
  } finally {
    session.close();
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function pool<T>(count: number, concurrency: number, run: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await run(index);
      }
    }),
  );
  return results;
}

/** Called with the id of each message.created frame a subscriber receives and the time (performance.now()). */
type OnMessage = (messageId: number, at: number) => void;

interface Subscriber {
  close(): void;
}

/**
 * Subscribers are lean on purpose: one client process reads 1 000 connections, so a full JSON
 * parse of every frame would measure the client, not the server. The message id is read with a
 * regular expression (MessageDto starts with it), falling back to JSON.parse.
 */
const MESSAGE_ID = /"type":"message\.created","message":\{"id":(\d+)/;

function messageIdOf(text: string): number | null {
  const match = MESSAGE_ID.exec(text);
  if (match) return Number(match[1]);
  if (!text.includes("message.created")) return null;
  const frame = JSON.parse(text.slice(text.indexOf("{"))) as { data: { message: { id: number } } };
  return frame.data.message.id;
}

const isSubscribed = (text: string) => text.includes('"type":"subscribed"');

/** An event stream reader; resolves once the stream's "subscribed" frame arrived. */
function sseSubscriber(url: string, onMessage: OnMessage): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`SSE refused: ${response.statusCode}`));
        return;
      }
      // latin1 keeps every byte one character: ids and "\n\n" read the same, and decoding is cheap.
      response.setEncoding("latin1");
      let buffer = "";
      response.on("data", (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let boundary: number;
        while ((boundary = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const id = messageIdOf(block);
          if (id !== null) onMessage(id, at);
          else if (isSubscribed(block)) resolve({ close: () => request.destroy() });
        }
      });
    });
    request.on("error", reject);
  });
}

/** A websocket client; sends `hello` frames once open and resolves once a "subscribed" frame arrived. */
function wsSubscriber(url: string, onMessage: OnMessage, hello: unknown[] = []): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on("open", () => hello.forEach((frame) => socket.send(JSON.stringify(frame))));
    socket.on("message", (raw: Buffer) => {
      const at = performance.now();
      const text = raw.toString("latin1", 0, 200);
      const id = MESSAGE_ID.exec(text);
      if (id) return onMessage(Number(id[1]), at);
      const full = raw.toString();
      const fallback = messageIdOf(full);
      if (fallback !== null) onMessage(fallback, at);
      else if (isSubscribed(full)) resolve({ close: () => socket.close() });
      else if (full.includes('"type":"error"')) reject(new Error(`websocket refused: ${full}`));
    });
    socket.on("error", reject);
  });
}

/** Inserts the subscribers and senders with their apiTokens; returns them and the public conversation's id. */
async function seed(options: { url?: string; pgliteDir?: string }) {
  const handle = await openDatabase({ ...options, maxConnections: 2 });
  try {
    const passwordHash = await hashPassword(PASSWORD);
    const suffix = randomBytes(3).toString("hex");
    const rows = Array.from({ length: SUBSCRIBERS + SENDER_ACCOUNTS }, (_, i) => {
      const username = i < SUBSCRIBERS ? `sub_${suffix}_${i}` : `snd_${suffix}_${i - SUBSCRIBERS}`;
      return { username, email: `${username}@bench.test`, passwordHash };
    });
    const inserted: Member[] = [];
    // Each member signed in once: realtime tokens belong to sessions (docs/decisions/0012).
    const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
    for (let i = 0; i < rows.length; i += 500) {
      const created = await handle.db
        .insert(users)
        .values(rows.slice(i, i + 500))
        .returning({ id: users.id, email: users.email });
      const withTokens = created.map((row) => ({ ...row, apiToken: generateApiToken() }));
      await handle.db
        .insert(sessions)
        .values(withTokens.map((row) => ({ id: randomBytes(24).toString("base64url"), userId: row.id, expiresAt, apiToken: row.apiToken })));
      inserted.push(...withTokens);
    }
    const [publicRow] = await handle.db.select({ id: conversations.id }).from(conversations).where(eq(conversations.kind, "public"));
    if (!publicRow) throw new Error("no public conversation: migration 0005 inserts it");
    // A running site's tables have statistics. Without them, the application measured first after
    // the seeding ran on plans for empty tables: SSE's p50 was 38.5 ms measured first, 21.0 ms after the websockets.
    await handle.db.execute(sql`analyze`);
    return { subscribers: inserted.slice(0, SUBSCRIBERS), senders: inserted.slice(SUBSCRIBERS), publicId: publicRow.id };
  } finally {
    await handle.close();
  }
}

/** The application: /api/sse and /api/ws, messages sent through the conversations API. */
async function applicationTarget(env: Record<string, string>, data: Awaited<ReturnType<typeof seed>>): Promise<Target> {
  const inspectorPort = await freePort();
  const server: RunningServer = await startServer({ PASSWORD_HASHING: "standard", ...env, NODE_OPTIONS: `--inspect=127.0.0.1:${inspectorPort}` });
  const signedIn = await pool(data.senders.length, 5, async (i) => {
    const sender = data.senders[i]!;
    const client = new Client(server.baseUrl);
    const response = await client.signIn(sender.email, PASSWORD);
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
    const csrf = csrfFromHtml(await (await client.fetch(`/profile/${sender.id}`)).text());
    return { client, csrf };
  });
  const channel = `conversation:group:${data.publicId}`;
  const wsUrl = `${server.baseUrl.replace(/^http/, "ws")}/api/ws`;
  return {
    name: "application",
    pid: server.process.pid!,
    inspectorPort,
    async connect(transport, index, onMessage) {
      const { apiToken } = data.subscribers[index]!;
      return transport === "sse"
        ? sseSubscriber(`${server.baseUrl}/api/sse?type=group&id=${data.publicId}&api-token=${apiToken}`, onMessage)
        : wsSubscriber(wsUrl, onMessage, [
            { type: "auth", apiToken },
            { type: "subscribe", channel },
          ]);
    },
    async send(n) {
      const sender = signedIn[n % signedIn.length]!;
      const response = await sender.client.fetch(`/api/profile/conversation/group/${data.publicId}/messages`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": sender.csrf },
        body: JSON.stringify({ body: bodyOf(n) }),
      });
      if (response.status !== 200) throw new Error(`send failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { data: { id: number } }).data.id;
    },
    stop: () => server.stop(),
  };
}

/** The bare broadcast servers of bench/fanout-baseline.mjs in a child process. */
async function baselineTarget(): Promise<Target> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectorPort}`, path.join(import.meta.dirname, "fanout-baseline.mjs")], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "ignore"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`the baseline server exited with ${code}`)));
  });
  const base = `127.0.0.1:${port}`;
  return {
    name: "baseline",
    pid: child.pid!,
    inspectorPort,
    async connect(transport, _index, onMessage) {
      return transport === "sse" ? sseSubscriber(`http://${base}/sse?channel=bench`, onMessage) : wsSubscriber(`ws://${base}/ws?channel=bench`, onMessage);
    },
    async send(n) {
      const response = await fetch(`http://${base}/send`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ channel: "bench", body: bodyOf(n), author: AUTHOR }),
      });
      return ((await response.json()) as { data: { id: number } }).data.id;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Connects the subscribers to `target` over `transport` and measures latency, throughput and memory. */
async function measure(target: Target, transport: Transport, firstMessage: number): Promise<{ figures: Figures; sent: number }> {
  const arrivals = new Map<number, number[]>();
  let recordArrivals = true;
  let delivered = 0;
  let lastDeliveryAt = 0;
  const onMessage: OnMessage = (id, at) => {
    delivered++;
    lastDeliveryAt = at;
    if (!recordArrivals) return;
    let list = arrivals.get(id);
    if (!list) arrivals.set(id, (list = []));
    list.push(at);
  };

  const label = `${transport === "sse" ? "SSE" : "websocket"} ${target.name}`;
  const heapBefore = await collectGarbage(target.inspectorPort);
  const rssBefore = rssBytes(target.pid);
  const startedConnecting = performance.now();
  const clients = await pool(SUBSCRIBERS, CONNECT_CONCURRENCY, (i) => target.connect(transport, i, onMessage));
  const connectSeconds = (performance.now() - startedConnecting) / 1000;
  await settle(500);
  const heapPerConnection = ((await collectGarbage(target.inspectorPort)) - heapBefore) / SUBSCRIBERS;
  const bytesPerConnection = (rssBytes(target.pid) - rssBefore) / SUBSCRIBERS;
  console.log(`  ${label}: ${SUBSCRIBERS} subscribers connected in ${connectSeconds.toFixed(1)} s`);

  let n = firstMessage;
  let errors = 0;
  const latency: number[] = [];
  const acks: number[] = [];
  try {
    for (let i = 0; i < WARMUP_MESSAGES + LATENCY_MESSAGES; i++) {
      const started = performance.now();
      const id = await target.send(n++);
      const acked = performance.now() - started;
      const all = await waitFor(() => (arrivals.get(id)?.length ?? 0) >= SUBSCRIBERS && arrivals.get(id), `message ${id} at every subscriber`, 60_000);
      if (i < WARMUP_MESSAGES) continue;
      acks.push(acked);
      for (const at of all) latency.push(at - started);
    }

    recordArrivals = false;
    arrivals.clear();
    const deliveredBefore = delivered;
    const expected = THROUGHPUT_MESSAGES * SUBSCRIBERS;
    const cpuBefore = cpuMs(target.pid);
    const started = performance.now();
    let next = 0;
    await profiled(target.inspectorPort, label, () =>
      Promise.all(
        Array.from({ length: SENDERS }, async () => {
          while (next < THROUGHPUT_MESSAGES) {
            next++;
            try {
              await target.send(n++);
            } catch (error) {
              errors++;
              console.error(`  ${label}: ${(error as Error).message}`);
            }
          }
        }),
      ),
    );
    const wanted = expected - errors * SUBSCRIBERS;
    await waitFor(() => delivered - deliveredBefore >= wanted, `${wanted} frames`, 300_000);
    const seconds = (lastDeliveryAt - started) / 1000;
    const cpuPerFrameUs = ((cpuMs(target.pid) - cpuBefore) * 1000) / wanted;
    const figures: Figures = {
      transport,
      server: target.name,
      latency,
      acks,
      messagesPerSecond: (THROUGHPUT_MESSAGES - errors) / seconds,
      framesPerSecond: wanted / seconds,
      cpuPerFrameUs,
      bytesPerConnection,
      heapPerConnection,
      errors,
    };
    return { figures, sent: n - firstMessage };
  } finally {
    for (const client of clients) client.close();
  }
}

function printSummary(all: Figures[], engine: string) {
  const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "—");
  console.log(
    `\nbench/fanout: one message of conversation:group:{public} to ${SUBSCRIBERS} subscribers — database ${engine}, ` +
      `${cpus().length} CPUs, Node ${process.version}`,
  );
  console.log(
    `latency: ${LATENCY_MESSAGES} messages one at a time (after ${WARMUP_MESSAGES} warm-up), send → receipt at each subscriber; ` +
      `throughput: ${THROUGHPUT_MESSAGES} messages from ${SENDERS} concurrent senders; memory: growth of the server's RSS and of its ` +
      `JS heap (after a full GC) per idle connection`,
  );
  console.log(
    "ratios (×) are application / baseline of the same transport: above 1 is slower or heavier for latency, CPU and memory, " +
      "below 1 is slower for throughput. One client process reads every connection, so when both rows of a transport reach " +
      "similar frames/s the client is the limit; CPU µs/frame (server user + system time over the throughput phase) is the " +
      "server's own cost either way.\n",
  );
  const header = [
    "transport".padEnd(10),
    "server".padEnd(12),
    "p50 ms".padStart(8),
    "×".padStart(6),
    "p99 ms".padStart(8),
    "×".padStart(6),
    "msg/s".padStart(8),
    "×".padStart(6),
    "frames/s".padStart(10),
    "CPU µs/frame".padStart(13),
    "×".padStart(6),
    "KB/conn".padStart(8),
    "×".padStart(6),
    "heap KB".padStart(8),
    "×".padStart(6),
    "ack p50".padStart(8),
    "errors".padStart(7),
  ];
  console.log(header.join(" "));
  for (const transport of ["sse", "ws"] as const) {
    const base = all.find((f) => f.transport === transport && f.server === "baseline");
    for (const f of all.filter((x) => x.transport === transport)) {
      const p50 = percentile(f.latency, 50);
      const p99 = percentile(f.latency, 99);
      console.log(
        [
          (transport === "sse" ? "SSE" : "websocket").padEnd(10),
          f.server.padEnd(12),
          fmt(p50).padStart(8),
          (base ? fmt(p50 / percentile(base.latency, 50), 2) : "—").padStart(6),
          fmt(p99).padStart(8),
          (base ? fmt(p99 / percentile(base.latency, 99), 2) : "—").padStart(6),
          fmt(f.messagesPerSecond, 0).padStart(8),
          (base ? fmt(f.messagesPerSecond / base.messagesPerSecond, 2) : "—").padStart(6),
          fmt(f.framesPerSecond, 0).padStart(10),
          fmt(f.cpuPerFrameUs, 2).padStart(13),
          (base ? fmt(f.cpuPerFrameUs / base.cpuPerFrameUs, 2) : "—").padStart(6),
          fmt(f.bytesPerConnection / 1024).padStart(8),
          (base ? fmt(f.bytesPerConnection / base.bytesPerConnection, 2) : "—").padStart(6),
          fmt(f.heapPerConnection / 1024).padStart(8),
          (base ? fmt(f.heapPerConnection / base.heapPerConnection, 2) : "—").padStart(6),
          fmt(percentile(f.acks, 50)).padStart(8),
          String(f.errors).padStart(7),
        ].join(" "),
      );
    }
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), "shodka-fanout-"));
const admin = databaseUrl ? postgres(databaseUrl, { max: 1, onnotice: () => {} }) : null;
const dbName = `bench_fanout_${Date.now()}_${randomBytes(3).toString("hex")}`;
try {
  // Every subscriber connects from this machine's one address: lift the per-address cap (issue 13 item 5).
  let env: Record<string, string> = { DATA_DIR: dataDir, SEED_DEMO: "0", REALTIME_MAX_CONNECTIONS_PER_ADDRESS: String(10 * (SUBSCRIBERS + 100)) };
  let data: Awaited<ReturnType<typeof seed>>;
  if (admin && databaseUrl) {
    await admin.unsafe(`create database "${dbName}"`);
    const url = new URL(databaseUrl);
    url.pathname = `/${dbName}`;
    env = { ...env, DATABASE_URL: url.toString() };
    data = await seed({ url: url.toString() });
  } else {
    // The server opens DATA_DIR/pglite; the seeding handle is closed before it starts.
    data = await seed({ pgliteDir: path.join(dataDir, "pglite") });
  }
  console.log(`Seeded ${SUBSCRIBERS} subscribers and ${SENDER_ACCOUNTS} senders (${databaseUrl ? "PostgreSQL" : "PGlite"}).`);

  const figures: Figures[] = [];
  let messageNumber = 0;
  for (const transport of TRANSPORTS) {
    // A fresh process per target, so each memory reading starts from an idle server.
    const baseline = await baselineTarget();
    try {
      const { figures: f, sent } = await measure(baseline, transport, messageNumber);
      figures.push(f);
      messageNumber += sent;
    } finally {
      await baseline.stop();
    }
    const application = await applicationTarget(env, data);
    try {
      const { figures: f, sent } = await measure(application, transport, messageNumber);
      figures.push(f);
      messageNumber += sent;
    } finally {
      await application.stop();
    }
  }
  printSummary(figures, databaseUrl ? "PostgreSQL" : "PGlite");
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  if (admin) {
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
}
