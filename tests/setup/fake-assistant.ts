/**
 * A local stand-in for an OpenAI-compatible Chat Completions endpoint (POST /v1/chat/completions
 * with `stream: true`), speaking the real streaming protocol: `data: {chunk}` events, then
 * `data: [DONE]`. What it does depends on the last user message, so tests stay deterministic:
 *
 * - «[ошибка 500]», «[ошибка 401]», «[ошибка 429]»: that status with an OpenAI-style error body;
 * - «[молчание]»: 200 and the stream's headers, then nothing, ever (a timeout before any text);
 * - «[обрыв]»: two pieces of text, then nothing (a stalled stream);
 * - «[пусто]»: `data: [DONE]` at once; «[поломка]»: a chunk that is not JSON;
 * - anything else: «Вы написали: «…».» and a fixed sentence, a word per chunk, 40 ms apart
 *   («[медленно]»: 250 ms apart).
 *
 * GET /health answers 200 (Playwright waits for it). Requests are recorded for assertions.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface FakeAssistant {
  /** The base URL to configure: http://127.0.0.1:{port}/v1 */
  baseUrl: string;
  /** Every completion request: its JSON body and Authorization header. */
  requests: { body: { model: string; stream: boolean; messages: { role: string; content: string }[] }; authorization: string | undefined }[];
  close(): Promise<void>;
}

/** The words of a normal answer after the echo. */
export const FAKE_ANSWER_TAIL = "Сделки безопаснее проводить через гаранта.";

export function fakeAnswerFor(prompt: string): string {
  return `Вы написали: «${prompt}». ${FAKE_ANSWER_TAIL}`;
}

export async function startFakeAssistant(port = 0): Promise<FakeAssistant> {
  const requests: FakeAssistant["requests"] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => void handle(req, res));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method === "GET" && req.url === "/health") return res.writeHead(200).end("ok");
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") return res.writeHead(404).end();
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as FakeAssistant["requests"][number]["body"];
    requests.push({ body, authorization: req.headers.authorization });
    const prompt = [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const status = /\[ошибка (\d{3})\]/.exec(prompt);
    if (status) {
      res.writeHead(Number(status[1]), { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ error: { message: "fake failure", type: "server_error", code: null } }));
    }
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    const send = (content: string) =>
      res.write(
        `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: body.model, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`,
      );
    if (prompt.includes("[молчание]")) return res.flushHeaders();
    if (prompt.includes("[обрыв]")) {
      send("Начинаю ");
      send("отвечать");
      return;
    }
    if (prompt.includes("[пусто]")) return res.end("data: [DONE]\n\n");
    if (prompt.includes("[поломка]")) return res.end("data: {это не JSON\n\n");
    const words = fakeAnswerFor(prompt).split(/(?<= )/);
    const delay = prompt.includes("[медленно]") ? 250 : 40;
    let index = 0;
    const next = () => {
      if (res.destroyed) return;
      if (index < words.length) {
        send(words[index++]!);
        const timer = setTimeout(next, delay);
        timers.add(timer);
        return;
      }
      res.write(
        `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: body.model, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`,
      );
      res.end("data: [DONE]\n\n");
    };
    next();
  }

  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
