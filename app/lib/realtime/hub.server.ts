/**
 * The realtime hub of one database: connections of this process subscribe to channels, and
 * domain code publishes frames after its transaction commits. Publishing goes through the
 * database's pub/sub (pubsub.server.ts), so on PostgreSQL a frame published by any server
 * process reaches the subscribers of every process (issue 4).
 */
import type { Db } from "~/db/client.server";
import { channelName, type ChannelRef, type RealtimeFrame } from "./frames";
import { pubSubOf } from "./pubsub.server";

/** One connected client (an SSE stream or a websocket) of one member. */
export interface RealtimeConnection {
  userId: number;
  /** Sends a frame to the client; must not throw. */
  send(frame: RealtimeFrame): void;
  /** The member's apiToken was rotated: the connection must close (it is revoked). */
  revoke(): void;
  /** The member lost access to `channel` (removed from a conversation). */
  lose?(channel: string): void;
}

/** What travels between processes. */
type Envelope =
  | { to: "channel"; channel: string; data: unknown }
  | { to: "user"; userId: number; data: unknown }
  | { to: "users"; userIds: number[]; data: unknown }
  | { to: "revoke"; userId: number }
  | { to: "lose"; userId: number; channel: string };

export interface RealtimeHub {
  /**
   * Sends `data` as a frame on a conversation channel to every subscriber in every process.
   * Call after the transaction commits. Resolves once handed to the pub/sub.
   */
  publishToChannel(ref: Exclude<ChannelRef, { kind: "notifications" }>, data: unknown): Promise<void>;
  /** Sends `data` on the `notifications` channel of member `userId` (all their connections). */
  publishToUser(userId: number, data: unknown): Promise<void>;
  /**
   * Sends the same `data` on the `notifications` channel of each member in `userIds` (all their
   * connections) as one message between processes: one NOTIFY on PostgreSQL, whatever the number
   * of recipients. Does nothing for an empty list.
   */
  publishToUsers(userIds: number[], data: unknown): Promise<void>;
  /** Closes every connection of `userId` in every process (their apiToken was rotated). */
  revokeUser(userId: number): Promise<void>;
  /** Drops `userId`'s subscriptions to `ref` in every process (removed from the conversation). */
  removeFromChannel(userId: number, ref: Exclude<ChannelRef, { kind: "notifications" }>): Promise<void>;
  /**
   * Subscribes a connection to a channel it has been authorised for (see access.server.ts).
   * Returns the unsubscribe function; subscribing twice to one channel is a no-op.
   */
  subscribe(connection: RealtimeConnection, ref: ChannelRef): () => void;
  /** Registers a connection (for revocation) before any subscription; returns its removal. */
  attach(connection: RealtimeConnection): () => void;
  /** Counts for diagnostics and benchmarks. */
  stats(): { connections: number; subscriptions: number };
}

/** Hubs per database; on globalThis so a development reload keeps the hub its connections are in. */
const globalStore = globalThis as typeof globalThis & { __realtimeHubs?: WeakMap<Db, RealtimeHub> };
const hubs = (globalStore.__realtimeHubs ??= new WeakMap());

/** The hub of database `db`, created (and listening on its pub/sub) on first use. */
export function realtimeHub(db: Db): RealtimeHub {
  let hub = hubs.get(db);
  if (!hub) hubs.set(db, (hub = createHub(db)));
  return hub;
}

function createHub(db: Db): RealtimeHub {
  const pubsub = pubSubOf(db);
  /** channel name, or `notifications:{userId}`, → connections */
  const byKey = new Map<string, Set<RealtimeConnection>>();
  const byUser = new Map<number, Set<RealtimeConnection>>();

  const keyOf = (connection: RealtimeConnection, ref: ChannelRef) => (ref.kind === "notifications" ? `notifications:${connection.userId}` : channelName(ref));

  const sendAll = (key: string, frame: RealtimeFrame) => {
    for (const connection of byKey.get(key) ?? []) connection.send(frame);
  };

  pubsub.listen((payload) => {
    const envelope = payload as Envelope;
    switch (envelope.to) {
      case "channel":
        return sendAll(envelope.channel, { channel: envelope.channel, data: envelope.data });
      case "user":
        return sendAll(`notifications:${envelope.userId}`, { channel: "notifications", data: envelope.data });
      case "users": {
        // One frame object for every recipient, so its JSON is computed once (wire.server.ts).
        const frame: RealtimeFrame = { channel: "notifications", data: envelope.data };
        for (const userId of envelope.userIds) sendAll(`notifications:${userId}`, frame);
        return;
      }
      case "revoke":
        for (const connection of [...(byUser.get(envelope.userId) ?? [])]) connection.revoke();
        return;
      case "lose": {
        const set = byKey.get(envelope.channel);
        for (const connection of [...(set ?? [])]) {
          if (connection.userId !== envelope.userId) continue;
          set!.delete(connection);
          connection.lose?.(envelope.channel);
        }
        if (set?.size === 0) byKey.delete(envelope.channel);
        return;
      }
    }
  });

  const publish = (envelope: Envelope) => pubsub.publish(envelope);

  return {
    publishToChannel: (ref, data) => publish({ to: "channel", channel: channelName(ref), data }),
    publishToUser: (userId, data) => publish({ to: "user", userId, data }),
    publishToUsers: async (userIds, data) => {
      if (userIds.length > 0) await publish({ to: "users", userIds: [...new Set(userIds)], data });
    },
    revokeUser: (userId) => publish({ to: "revoke", userId }),
    removeFromChannel: (userId, ref) => publish({ to: "lose", userId, channel: channelName(ref) }),
    attach(connection) {
      const set = byUser.get(connection.userId) ?? new Set();
      byUser.set(connection.userId, set);
      set.add(connection);
      return () => {
        set.delete(connection);
        if (set.size === 0) byUser.delete(connection.userId);
      };
    },
    subscribe(connection, ref) {
      const key = keyOf(connection, ref);
      const set = byKey.get(key) ?? new Set();
      byKey.set(key, set);
      if (set.has(connection)) return () => {};
      set.add(connection);
      return () => {
        if (!set.delete(connection)) return;
        if (set.size === 0 && byKey.get(key) === set) byKey.delete(key);
      };
    },
    stats() {
      let connections = 0;
      for (const set of byUser.values()) connections += set.size;
      let subscriptions = 0;
      for (const set of byKey.values()) subscriptions += set.size;
      return { connections, subscriptions };
    },
  };
}
