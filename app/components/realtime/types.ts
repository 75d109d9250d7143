/** Shapes shared by the realtime provider (browser) and the root loader (server). Types only. */
import type { UnreadRecordDto } from "~/domain/conversations/types";

export type RealtimeTransport = "ws" | "sse";

/** What the root loader hands the realtime provider for a signed-in member. */
export interface RealtimeRootData {
  /** The member's token for the websocket auth frame and the event-stream query (docs/product/realtime.md#access). */
  apiToken: string;
  /** REALTIME_TRANSPORT: "ws" (SSE after 6 failed reconnects) or "sse". */
  transport: RealtimeTransport;
  /** REALTIME_SSE_PATH: where the browser opens server-sent events ("/api/sse" by default). */
  ssePath: string;
  /** Unread notifications (chat messages are counted in `unread`, not here). */
  notifications: number;
  /** The unread-messages record (docs/product/conversations.md#unread-counts). */
  unread: UnreadRecordDto;
}
