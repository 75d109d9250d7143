/**
 * The deposit log over HTTP (issue 5 item 3, docs/product/money.md#balance-logs): GET /api/profile/payments/deposit for a
 * visitor, for the member whose deposit moved and for another member. Money moves the way a
 * browser moves it: the admin's top-up form on /profile/wallet, the deposit form on
 * /profile/deposit (form posts with the CSRF token and an idempotency key).
 */
import { describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";

interface DepositPage {
  items: { id: number; type: string; amount: number; counterparty: unknown; createdAt: string; balanceAfter: number }[];
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
}

async function pageCsrf(client: Client, path: string): Promise<string> {
  return csrfFromHtml(await (await client.fetch(path)).text());
}

async function registered(): Promise<{ client: Client; username: string }> {
  const client = new Client();
  const { username } = await client.register();
  return { client, username };
}

async function depositLog(client: Client, query = ""): Promise<DepositPage> {
  const response = await client.fetch(`/api/profile/payments/deposit${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { success: true; data: DepositPage }).data;
}

async function topUpAs(admin: Client, username: string, roubles: string): Promise<void> {
  const csrf = await pageCsrf(admin, "/profile/wallet");
  // Through the confirmation step (docs/product/interface.md#money-confirmations): the first post only shows it.
  const fields = { csrf, intent: "topup", key: crypto.randomUUID(), member: username, amount: roubles };
  expect((await admin.postForm("/profile/wallet", fields)).status).toBe(200);
  const response = await admin.postForm("/profile/wallet", { ...fields, confirmed: "1" });
  expect(response.status, await response.clone().text()).toBe(302);
}

async function adminClient(): Promise<Client> {
  const admin = new Client();
  const signIn = await admin.signIn("admin@shodka.local", "admin12345");
  expect(signIn.status).toBeLessThan(400);
  return admin;
}

describe("GET /api/profile/payments/deposit", () => {
  it("refuses a visitor with 401 and the stable code", async () => {
    const response = await new Client().fetch("/api/profile/payments/deposit");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false, errors: { code: "unauthorized" } });
  });

  it("shows a member their own deposit changes only; a resubmitted form does not lock twice", async () => {
    const [alice, bob, admin] = [await registered(), await registered(), await adminClient()];
    await topUpAs(admin, alice.username, "500");

    const csrf = await pageCsrf(alice.client, "/profile/deposit");
    // The confirmation step's post (docs/product/interface.md#money-confirmations): confirmed=1 moves the money.
    const form = { csrf, intent: "deposit", key: crypto.randomUUID(), amount: "120,50", confirmed: "1" };
    const first = await alice.client.postForm("/profile/deposit", form);
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/profile/deposit");
    // The same form sent again (a double click, a resubmission) replays: nothing moves twice.
    expect((await alice.client.postForm("/profile/deposit", form)).status).toBe(302);

    const log = await depositLog(alice.client);
    expect(log).toMatchObject({ page: 1, perPage: 10, total: 1, totalPages: 1 });
    expect(log.items).toEqual([
      { id: expect.any(Number), type: "deposit", amount: 12_050, counterparty: null, createdAt: expect.any(String), balanceAfter: 12_050 },
    ]);
    const balance = await (await alice.client.fetch("/api/profile/payments/balance")).json();
    expect(balance.data.items.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
      ["deposit", -12_050],
      ["topup", 50_000],
    ]);

    expect(await depositLog(bob.client, "?perPage=500")).toEqual({ items: [], page: 1, perPage: 50, total: 0, totalPages: 1 });
  });

  it("a refused deposit answers the page with the Russian reason and logs nothing", async () => {
    const { client } = await registered();
    const csrf = await pageCsrf(client, "/profile/deposit");
    const refused = await client.postForm("/profile/deposit", { csrf, intent: "deposit", key: crypto.randomUUID(), amount: "10" });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("Недостаточно средств на балансе");
    expect((await depositLog(client)).total).toBe(0);
  });
});
