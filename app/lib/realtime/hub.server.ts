/**
 * The realtime hub of one database: connections of this process subscribe to channels, and
 * domain code publishes frames after its transaction commits. Publishing goes through the
 * database's pub/sub (pubsub.server.ts), so on PostgreSQL a frame published by any server
 * process reaches the subscribers of every process (issue 4).
 */
import type { Db } from "~/db/client.server";
import { channelName, type ChannelRef, type RealtimeFrame } from "./frames";
import { eventBus } from "~/lib/events.server";
import { logger } from "~/lib/logger.server";
import { clearPresence, markAbsent, markPresent, PRESENCE_TIMING, PROCESS_ID, refreshPresence } from "./presence.server";
import { pubSubOf } from "./pubsub.server";

/** One connected client (an SSE stream or a websocket) of one member. */
export interface RealtimeConnection {
  userId: number;
  /**
   * The handle of the session whose apiToken opened the connection (sessionHandle of
   * domain/users/sessions.server.ts), so ending that session closes it (revokeSessions).
   */
  session?: string;
  /** Sends a frame to the client; must not throw. */
  send(frame: RealtimeFrame): void;
  /** The connection's token ended (session ended or token rotated, or the member signed out everywhere): it must close. */
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
  | { to: "revokeSessions"; sessions: string[] }
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
  /** Closes every connection of `userId` in every process (signed out everywhere, suspended). */
  revokeUser(userId: number): Promise<void>;
  /**
   * Closes the connections opened with the tokens of the sessions named by `handles`
   * (sessionHandle: never the raw session ids, which are credentials) in every process.
   */
  revokeSessions(handles: string[]): Promise<void>;
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
  /** Settles the presence records written so far (tests). */
  presenceSettled(): Promise<void>;
  /** Stops refreshing this process's presence and removes its rows (a clean shutdown). */
  close(): Promise<void>;
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
  const bySession = new Map<string, Set<RealtimeConnection>>();

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
      case "revokeSessions":
        for (const session of envelope.sessions) {
          for (const connection of [...(bySession.get(session) ?? [])]) connection.revoke();
        }
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

  // docs/product/conversations.md#online: this process's connected members in realtime_presence,
  // written one after another so a quick close and reopen land in order.
  let presenceQueue: Promise<void> = Promise.resolve();
  const offlineTimers = new Map<number, ReturnType<typeof setTimeout>>();
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  const presence = (write: () => Promise<void>, userId?: number) => {
    presenceQueue = presenceQueue
      .then(async () => {
        await write();
        if (userId !== undefined) eventBus(db).publish({ type: "presence.changed", userId });
      })
      .catch((error: unknown) => {
        // A grace timer firing after the database closed (shutdown, the end of a test) has nothing left to record.
        const closed = /closed|ended/i.test(String((error as { cause?: { message?: string } }).cause?.message ?? ""));
        if (closed) logger.debug({ err: error, area: "realtime" }, "presence not recorded: the database is closed");
        else logger.error({ err: error, area: "realtime" }, "presence not recorded");
      });
  };
  const connected = (userId: number) => {
    const pending = offlineTimers.get(userId);
    if (pending !== undefined) {
      // Back within the grace period (a reload): still recorded as present.
      clearTimeout(pending);
      offlineTimers.delete(userId);
      return;
    }
    presence(() => markPresent(db, PROCESS_ID, userId), userId);
    if (heartbeat === null) {
      heartbeat = setInterval(() => presence(() => refreshPresence(db, PROCESS_ID)), PRESENCE_TIMING.refreshMs);
      heartbeat.unref();
    }
  };
  const disconnected = (userId: number) => {
    const timer = setTimeout(() => {
      offlineTimers.delete(userId);
      if (!byUser.has(userId)) presence(() => markAbsent(db, PROCESS_ID, userId), userId);
    }, PRESENCE_TIMING.offlineGraceMs);
    timer.unref();
    offlineTimers.set(userId, timer);
  };

  return {
    publishToChannel: (ref, data) => publish({ to: "channel", channel: channelName(ref), data }),
    publishToUser: (userId, data) => publish({ to: "user", userId, data }),
    publishToUsers: async (userIds, data) => {
      if (userIds.length > 0) await publish({ to: "users", userIds: [...new Set(userIds)], data });
    },
    revokeUser: (userId) => publish({ to: "revoke", userId }),
    revokeSessions: async (handles) => {
      if (handles.length > 0) await publish({ to: "revokeSessions", sessions: [...new Set(handles)] });
    },
    removeFromChannel: (userId, ref) => publish({ to: "lose", userId, channel: channelName(ref) }),
    attach(connection) {
      if (!byUser.has(connection.userId)) connected(connection.userId);
      const set = byUser.get(connection.userId) ?? new Set();
      byUser.set(connection.userId, set);
      set.add(connection);
      const session = connection.session;
      const sessionSet = session === undefined ? undefined : (bySession.get(session) ?? new Set<RealtimeConnection>());
      if (session !== undefined && sessionSet) {
        bySession.set(session, sessionSet);
        sessionSet.add(connection);
      }
      return () => {
        if (!set.delete(connection)) return;
        if (set.size === 0 && byUser.get(connection.userId) === set) {
          byUser.delete(connection.userId);
          disconnected(connection.userId);
        }
        if (session !== undefined && sessionSet) {
          sessionSet.delete(connection);
          if (sessionSet.size === 0 && bySession.get(session) === sessionSet) bySession.delete(session);
        }
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
    presenceSettled: () => presenceQueue,
    async close() {
      if (heartbeat !== null) clearInterval(heartbeat);
      heartbeat = null;
      for (const timer of offlineTimers.values()) clearTimeout(timer);
      offlineTimers.clear();
      await presenceQueue;
      await clearPresence(db, PROCESS_ID);
    },
  };
}
