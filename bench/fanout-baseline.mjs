// The baseline of bench/fanout: the least a fan-out server can do, with no framework, database,
// authentication or pub/sub — a bare node:http server-sent events broadcast (GET /sse) and a bare
// `ws` broadcast (/ws) of the frame built from each POST /send, in its own process like the
// real server, so that both are measured the same way by the same clients.
//   PORT=… node bench/fanout-baseline.mjs      prints "listening" when ready
import { createServer } from "node:http";
import { WebSocketServer } from "ws";

const port = Number(process.env.PORT ?? 0);
const streams = new Set();
const sockets = new WebSocketServer({ noServer: true });
let nextId = 1;

const subscribed = (channel) => JSON.stringify({ channel: "system", data: { type: "subscribed", channel } });

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (req.method === "GET" && url.pathname === "/sse") {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    res.write(`event: message\ndata: ${subscribed(url.searchParams.get("channel"))}\n\n`);
    streams.add(res);
    req.on("close", () => streams.delete(res));
    return;
  }
  if (req.method === "POST" && url.pathname === "/send") {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const { channel, body, author } = JSON.parse(raw);
      // The same shape as the application's MessageDto, so frames weigh the same.
      const message = { id: nextId++, conversationId: 1, author, body, replyTo: null, createdAt: new Date().toISOString(), editedAt: null, deleted: false };
      const json = JSON.stringify({ channel, data: { type: "message.created", message } });
      const event = `event: message\ndata: ${json}\n\n`;
      for (const stream of streams) stream.write(event);
      for (const socket of sockets.clients) socket.send(json);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ success: true, data: message }));
    });
    return;
  }
  res.writeHead(404).end();
});

server.on("upgrade", (req, socket, head) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  sockets.handleUpgrade(req, socket, head, (ws) => ws.send(subscribed(url.searchParams.get("channel"))));
});

server.listen(port, "127.0.0.1", () => console.log(`listening on ${server.address().port}`));
process.on("SIGTERM", () => process.exit(0));
