import { describe, expect, it, vi } from "vitest";
import type { Db } from "~/db/client.server";
import { logger } from "~/lib/logger.server";
import { eventBus, type DomainEvent } from "./events.server";

const fakeDb = () => ({}) as Db;

describe("event bus", () => {
  it("delivers an event to its type's subscribers and to '*', after publish returns", async () => {
    const bus = eventBus(fakeDb());
    const seen: string[] = [];
    bus.subscribe("follow.created", (event) => void seen.push(`follow ${event.followerId}→${event.followeeId}`));
    bus.subscribe("*", (event) => void seen.push(`any ${event.type}`));
    bus.publish({ type: "follow.created", followerId: 1, followeeId: 2 });
    expect(seen).toEqual([]);
    await bus.drain();
    expect(seen.sort()).toEqual(["any follow.created", "follow 1→2"]);
  });

  it("keeps buses of different databases apart and survives a failing handler", async () => {
    const first = eventBus(fakeDb());
    const second = eventBus(fakeDb());
    const got: DomainEvent[] = [];
    first.subscribe("post.created", () => {
      throw new Error("boom");
    });
    first.subscribe("post.created", (event) => void got.push(event));
    second.subscribe("post.created", () => void got.push({ type: "follow.created", followerId: 0, followeeId: 0 }));
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    first.publish({ type: "post.created", postId: 7, authorId: 1, mentionedUserIds: [] });
    await first.drain();
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
    expect(got).toEqual([{ type: "post.created", postId: 7, authorId: 1, mentionedUserIds: [] }]);
  });
});
