/**
 * Reading the answer stream of POST /api/assistant/messages in the browser: a fetch response
 * of `text/event-stream` (EventSource cannot POST), split into events as the bytes arrive. Pure
 * apart from the stream it is given.
 */
import type { AssistantStreamEvent } from "~/domain/assistant/types";

/** The complete events at the start of `buffer`, and what is left (an event not yet finished). */
export function parseEvents(buffer: string): { events: AssistantStreamEvent[]; rest: string } {
  const events: AssistantStreamEvent[] = [];
  const blocks = buffer.replace(/\r\n/g, "\n").split("\n\n");
  const rest = blocks.pop() ?? "";
  for (const block of blocks) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length === 0) continue;
    events.push({ event, data: JSON.parse(data.join("\n")) } as AssistantStreamEvent);
  }
  return { events, rest };
}

/** Calls `onEvent` for each event of `body` as it arrives; resolves when the stream ends. */
export async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: AssistantStreamEvent) => void): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const parsed = parseEvents(buffer + value);
    buffer = parsed.rest;
    parsed.events.forEach(onEvent);
  }
}
