import { describe, expect, it } from "vitest";
import { parseEvents, readEvents } from "./sse";

describe("reading the assistant's event stream", () => {
  it("splits complete events and keeps an unfinished one for later", () => {
    const { events, rest } = parseEvents('event: delta\ndata: {"text":"При"}\n\nevent: delta\ndata: {"text":"вет"}\n\nevent: do');
    expect(events).toEqual([
      { event: "delta", data: { text: "При" } },
      { event: "delta", data: { text: "вет" } },
    ]);
    expect(rest).toBe("event: do");
  });

  it("reads events split anywhere across chunks", async () => {
    const text = 'event: delta\ndata: {"text":"Ответ"}\n\nevent: done\ndata: {"message":{"id":1}}\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const seen: unknown[] = [];
    await readEvents(body, (event) => seen.push(event));
    expect(seen).toEqual([
      { event: "delta", data: { text: "Ответ" } },
      { event: "done", data: { message: { id: 1 } } },
    ]);
  });
});
