/**
 * Caps on live connections (issue 13 item 5): 500 websockets from one address and 200 event
 * streams on one token were accepted. Each server process counts its own websockets and event
 * streams together, per client address and per member, and refuses one more beyond
 * REALTIME_MAX_CONNECTIONS_PER_ADDRESS / REALTIME_MAX_CONNECTIONS_PER_MEMBER: a websocket upgrade
 * with HTTP 429 (per address) or close code 4429 after its auth frame (per member), an event stream
 * with 429 `too_many_connections`. With several processes behind a balancer the caps are per process.
 */
import { getConfig } from "../config.server";

export interface ConnectionCaps {
  perAddress: number;
  perMember: number;
}

/** The configured caps (REALTIME_MAX_CONNECTIONS_PER_ADDRESS, REALTIME_MAX_CONNECTIONS_PER_MEMBER). */
export function configuredConnectionCaps(): ConnectionCaps {
  const config = getConfig();
  return { perAddress: config.realtimeMaxConnectionsPerAddress, perMember: config.realtimeMaxConnectionsPerMember };
}

/** Counts of this process's connections; on globalThis so a development reload keeps counting the open ones. */
const globalStore = globalThis as typeof globalThis & { __realtimeConnectionCounts?: { byAddress: Map<string, number>; byMember: Map<number, number> } };
const counts = (globalStore.__realtimeConnectionCounts ??= { byAddress: new Map(), byMember: new Map() });

function take<K>(map: Map<K, number>, key: K, cap: number): (() => void) | null {
  const current = map.get(key) ?? 0;
  if (current >= cap) return null;
  map.set(key, current + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (map.get(key) ?? 1) - 1;
    if (left <= 0) map.delete(key);
    else map.set(key, left);
  };
}

/** Takes a connection slot of client `address`; returns its release, or null when the address has `cap` already. */
export function takeAddressSlot(address: string, cap: number): (() => void) | null {
  return take(counts.byAddress, address, cap);
}

/** Takes a connection slot of member `userId`; returns its release, or null when the member has `cap` already. */
export function takeMemberSlot(userId: number, cap: number): (() => void) | null {
  return take(counts.byMember, userId, cap);
}
