/**
 * Rate limits on what an attacker can repeat cheaply (issue 13 item 4; docs/product/limits.md#rate-limits):
 * registrations per address, transfers, deposits, deals, groups and new personal conversations
 * per member. Past the limit /api answers 429 `rate_limited` with Retry-After; pages answer 429
 * with the Russian message (JavaScript off). A retry of an operation already made is not counted.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";
import { member, type Member } from "./members";

const randomAddress = () => `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

/** POSTs JSON as a member's browser does for money calls, with a fresh (or given) idempotency key. */
async function postJson(who: Member, path: string, body: unknown, key: string = randomUUID()) {
  const response = await who.client.fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": who.csrf, "Idempotency-Key": key },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("Retry-After"),
    body: (await response.json()) as { errors?: { code: string; message: string } },
  };
}

/** Sends `count` calls one after another; returns their statuses. */
async function repeat(count: number, call: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await call(i)).status);
  return statuses;
}

describe("rate limits (issue 13 item 4)", () => {
  it("registrations: 5 an hour per address, then 429 with Retry-After and the Russian message on the page", async () => {
    const address = randomAddress();
    for (let i = 0; i < 5; i++) await new Client(undefined, address).register();
    const client = new Client(undefined, address);
    const page = await (await client.fetch("/auth/register")).text();
    const honeypot = /name="from__confirm" value="([^"]*)"/.exec(page)?.[1] ?? "";
    const username = `late_${Math.random().toString(36).slice(2, 8)}`;
    const refused = await client.postForm("/auth/register", {
      csrf: csrfFromHtml(page),
      username,
      email: `${username}@example.test`,
      password: "password-123",
      redirect: "",
      from__confirm: honeypot.replace(/&quot;/g, '"'),
      name__confirm: "",
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("слишком много аккаунтов");
    // Another address registers as usual.
    await new Client(undefined, randomAddress()).register();
  });

  it("transfers: 30 a minute per member, then 429 rate_limited with Retry-After; a retried key is not counted", async () => {
    const [sender, recipient] = await Promise.all([member(), member()]);
    const key = randomUUID();
    const body = { recipient: recipient.username, amount: 100 };
    const statuses = await repeat(30, (i) => postJson(sender, "/api/profile/payments/transfer", body, i === 0 ? key : undefined));
    // No money: each is refused for funds, and still counted.
    expect(new Set(statuses)).toEqual(new Set([422]));
    const limited = await postJson(sender, "/api/profile/payments/transfer", body);
    expect(limited.status).toBe(429);
    expect(limited.body.errors?.code).toBe("rate_limited");
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    // The other member is not limited by the sender's transfers.
    expect((await postJson(recipient, "/api/profile/payments/transfer", { recipient: sender.username, amount: 100 })).status).toBe(422);
  });

  it("deposits: 20 an hour per member", async () => {
    const who = await member();
    expect(new Set(await repeat(20, () => postJson(who, "/api/profile/payments/deposit", { amount: 100 })))).toEqual(new Set([422]));
    expect((await postJson(who, "/api/profile/payments/deposit", { amount: 100 })).body.errors?.code).toBe("rate_limited");
  });

  it("deals: 20 new deals an hour per member", async () => {
    const [me, other] = await Promise.all([member(), member()]);
    const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const body = { counterparty: other.username, role: "buyer", amount: 20_000, description: "Ключ", deadline, feePayer: "split" };
    expect(new Set(await repeat(20, () => postJson(me, "/api/guarantor/deals", body)))).toEqual(new Set([200]));
    const limited = await postJson(me, "/api/guarantor/deals", body);
    expect(limited.status).toBe(429);
    expect(limited.body.errors?.code).toBe("rate_limited");
  });

  it("groups: 10 new groups an hour per member, the 11th refused on the page with its Russian message", async () => {
    const owner = await member();
    const create = (name: string) => owner.client.postForm("/profile/conversations", { csrf: owner.csrf, intent: "create-group", name });
    expect(new Set(await repeat(10, (i) => create(`Группа ${i}`)))).toEqual(new Set([302]));
    const refused = await create("Лишняя");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("personal conversations: 30 new ones an hour per member; opening an existing one is never refused", async () => {
    const starter = await member();
    const others = await Promise.all(Array.from({ length: 31 }, () => member()));
    const open = (other: Member) => starter.client.fetch(`/api/profile/conversation/personal/user/${other.id}`);
    expect(new Set(await repeat(30, (i) => open(others[i]!)))).toEqual(new Set([200]));
    const limited = await open(others[30]!);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { errors: { code: string } }).errors.code).toBe("rate_limited");
    expect((await open(others[0]!)).status).toBe(200);
  });
});
