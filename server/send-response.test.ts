import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { sendResponse, type ResponseTarget } from "./send-response";

/** A response whose client never reads: every write stays buffered. */
function stalledClient(): ResponseTarget & { headers: Record<string, string> } {
  const target = new Writable({ highWaterMark: 16, write() {} }) as Writable & ResponseTarget & { headers: Record<string, string> };
  target.headers = {};
  target.statusMessage = "";
  target.status = () => target;
  target.append = (name: string, value: string) => (target.headers[name] = value);
  target.flushHeaders = () => {};
  return target;
}

/** An endless event stream of 1 KB events; `cancelled` tells whether the server stopped producing it. */
function endlessEvents() {
  const state = { cancelled: false, sent: 0 };
  const chunk = new TextEncoder().encode(`data: ${"x".repeat(1024)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { state, response: new Response(body, { headers: { "Content-Type": "text/event-stream" } }) };
}

describe("sendResponse backpressure (issue 13 item 5)", () => {
  it("drops an event-stream reader that does not drain once the cap is unsent, and stops the stream", async () => {
    const client = stalledClient();
    const { state, response } = endlessEvents();
    await sendResponse(client, response, 64 * 1024);
    expect(client.destroyed).toBe(true);
    expect(state.cancelled).toBe(true);
    expect(state.sent).toBeLessThan(80 * 1024);
  });

  it("sends an ordinary body whole", async () => {
    const written: Buffer[] = [];
    const client = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk);
        done();
      },
    }) as Writable & ResponseTarget;
    client.status = () => client;
    client.append = () => client;
    client.flushHeaders = () => {};
    await sendResponse(client, new Response("привет", { status: 201 }));
    expect(Buffer.concat(written).toString()).toBe("привет");
    expect(client.writableEnded).toBe(true);
  });
});
