/**
 * The confirmation step of every money page over HTTP (docs/product/interface.md#money-confirmations):
 * a page form posted without `confirmed=1` — a transfer, a hold's early release, an admin's top-up,
 * a deposit, a withdrawal request and its cancellation, a deal's funding, confirmation, mutual
 * cancellation and a moderator's resolution, a claim upheld with compensation — answers 200 with the confirmation
 * (who gets the money, the amount, «Подтвердить») and moves no money; the same form with
 * `confirmed=1` and the same key moves it once (a second post replays). The JSON endpoints stay
 * one step. Members are new on the running test server; the demo admin tops them up.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { DealDto } from "~/domain/deals/types";
import { Client, csrfFromHtml, decodeHtml } from "./client";

interface Caller {
  client: Client;
  id: number;
  username: string;
  /** The CSRF token of the member's page forms (also the X-CSRF-Token header's). */
  csrf: string;
}

/** `client`'s member with the CSRF token of its forms: `csrf` when known (a registration's), else the wallet page's. */
async function signedIn(client: Client, csrf?: string): Promise<Caller> {
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; name: string };
  return { client, id: me.id, username: me.name, csrf: csrf ?? csrfFromHtml(await (await client.fetch("/profile/wallet")).text()) };
}

async function member(): Promise<Caller> {
  const client = new Client();
  const { csrf } = await client.register();
  return signedIn(client, csrf);
}

let admin: Caller;
let moderator: Caller;
beforeAll(async () => {
  const client = new Client();
  expect((await client.signIn("admin@shodka.local", "admin12345")).status).toBe(200);
  admin = await signedIn(client);
  const mod = new Client();
  expect((await mod.signIn("moderator@shodka.local", "moder12345")).status).toBe(200);
  moderator = await signedIn(mod);
});

async function api(who: Caller, path: string, body: unknown): Promise<{ status: number; body: { success: boolean; data?: unknown } }> {
  const response = await who.client.fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": who.csrf, "Idempotency-Key": randomUUID() },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function topUp(who: Caller, kopecks: number) {
  const answer = await api(admin, "/api/admin/payments/topup", { memberId: who.id, amount: kopecks });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** The member's balances in kopecks, as /api/profile/payments/balance and …/deposit last recorded them. */
async function balances(who: Caller): Promise<{ available: number; deposit: number; entries: number }> {
  const log = (await (await who.client.fetch("/api/profile/payments/balance")).json()).data as { items: { balanceAfter: number }[]; total: number };
  const deposit = (await (await who.client.fetch("/api/profile/payments/deposit")).json()).data as { items: { balanceAfter: number }[] };
  return { available: log.items[0]?.balanceAfter ?? 0, deposit: deposit.items[0]?.balanceAfter ?? 0, entries: log.total };
}

/** Posts a page form; returns the status and the page (decoded) or the redirect's target. */
async function postPage(who: Caller, path: string, fields: Record<string, string>) {
  const response = await who.client.postForm(path, { csrf: who.csrf, ...fields });
  return { status: response.status, location: response.headers.get("Location"), html: decodeHtml(await response.text()) };
}

/** Posts `fields` once without the confirmation and expects the confirmation page, then with it twice and expects one move. */
async function confirmTwice(who: Caller, path: string, fields: Record<string, string>, shows: string[]) {
  const preview = await postPage(who, path, fields);
  expect(preview.status, preview.html.slice(0, 300)).toBe(200);
  for (const text of [...shows, "Подтвердить", "Изменить", 'name="confirmed" value="1"']) expect(preview.html).toContain(text);
  const confirmed = { ...fields, confirmed: "1" };
  const first = await postPage(who, path, confirmed);
  expect(first.status, first.html.slice(0, 300)).toBe(302);
  const again = await postPage(who, path, confirmed);
  expect(again.status).toBe(302);
}

const nbsp = (text: string) => text.replace(/ /gu, "\u00a0");

describe("money pages confirm before moving money", () => {
  it("a transfer: without confirmed=1 the page shows the recipient and moves nothing; with it, the money moves once", async () => {
    const [alice, bob] = [await member(), await member()];
    await topUp(alice, 100_000);
    const fields = { intent: "transfer", key: randomUUID(), recipient: bob.username, amount: "250" };
    const preview = await postPage(alice, "/profile/wallet", fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(bob.username);
    expect(await balances(alice)).toMatchObject({ available: 100_000, entries: 1 });
    expect(await balances(bob)).toMatchObject({ available: 0, entries: 0 });
    await confirmTwice(alice, "/profile/wallet", fields, [nbsp("750,00 ₽")]);
    expect(await balances(alice)).toMatchObject({ available: 75_000, entries: 2 });
    expect(await balances(bob)).toMatchObject({ available: 25_000, entries: 1 });
  });

  it("releasing a hold: the first post names the recipient and releases nothing; the confirmed one releases it once", async () => {
    const [alice, bob] = [await member(), await member()];
    await topUp(alice, 100_000);
    const sent = await api(alice, "/api/profile/payments/transfer", { recipient: bob.username, amount: 40_000, holdHours: 24 });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const holdId = String((sent.body.data as { holdId: number }).holdId);
    const fields = { intent: "release", key: randomUUID(), holdId };
    const preview = await postPage(alice, "/profile/wallet", fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(bob.username);
    expect(preview.html).toContain(nbsp("400,00 ₽"));
    expect(decodeHtml(await (await alice.client.fetch("/profile/wallet")).text())).toContain(`Снять удержание: ${nbsp("400,00 ₽")} для ${bob.username}`);
    expect(await balances(bob)).toMatchObject({ available: 0, entries: 0 });
    await confirmTwice(alice, "/profile/wallet", fields, [bob.username]);
    expect(await balances(bob)).toMatchObject({ available: 40_000, entries: 1 });
    expect(await balances(alice)).toMatchObject({ available: 60_000 });
  });

  it("a deposit: the first post shows the balance and the deposit after and locks nothing", async () => {
    const alice = await member();
    await topUp(alice, 50_000);
    const fields = { intent: "deposit", key: randomUUID(), amount: "120,50" };
    const preview = await postPage(alice, "/profile/deposit", fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(nbsp("379,50 ₽"));
    expect(await balances(alice)).toEqual({ available: 50_000, deposit: 0, entries: 1 });
    await confirmTwice(alice, "/profile/deposit", fields, [nbsp("120,50 ₽")]);
    expect(await balances(alice)).toEqual({ available: 37_950, deposit: 12_050, entries: 2 });
  });

  it("a withdrawal request: the first post shows when the money comes back and requests nothing", async () => {
    const alice = await member();
    await topUp(alice, 50_000);
    expect((await api(alice, "/api/profile/payments/deposit", { amount: 30_000 })).status).toBe(200);
    const fields = { intent: "withdraw", key: randomUUID(), amount: "100" };
    const preview = await postPage(alice, "/profile/deposit", fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain("Вернётся на баланс");
    expect((await (await alice.client.fetch("/profile/deposit")).text()).includes('data-testid="pending-withdrawal"')).toBe(false);
    await confirmTwice(alice, "/profile/deposit", fields, [nbsp("100,00 ₽")]);
    const page = await (await alice.client.fetch("/profile/deposit")).text();
    expect(page).toContain('data-testid="pending-withdrawal"');
    expect(await balances(alice)).toEqual({ available: 20_000, deposit: 30_000, entries: 2 });
  });

  it("a deal: «Оплатить» and «Подтвердить получение» show the seller and move nothing until confirmed", async () => {
    const [buyer, seller] = [await member(), await member()];
    await topUp(buyer, 500_000);
    const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const created = await api(seller, "/api/guarantor/deals", {
      counterparty: buyer.username,
      role: "seller",
      amount: 100_000,
      description: "Аккаунт",
      deadline,
      feePayer: "buyer",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const deal = created.body.data as DealDto;
    const page = `/services/guarantor/deals/${deal.id}`;
    const state = async () => ((await (await buyer.client.fetch(`/api/guarantor/deals/${deal.id}`)).json()).data as DealDto).state;
    expect((await api(buyer, `/api/guarantor/deals/${deal.id}/actions`, { action: "accept" })).status).toBe(200);

    const fund = { intent: "fund", key: randomUUID() };
    const preview = await postPage(buyer, page, fund);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(seller.username);
    expect(preview.html).toContain(nbsp("1 050,00 ₽"));
    expect(await state()).toBe("accepted");
    expect(await balances(buyer)).toMatchObject({ available: 500_000, entries: 1 });
    await confirmTwice(buyer, page, fund, [nbsp("3 950,00 ₽")]);
    expect(await state()).toBe("funded");
    expect(await balances(buyer)).toMatchObject({ available: 395_000, entries: 2 });

    expect((await api(seller, `/api/guarantor/deals/${deal.id}/actions`, { action: "deliver" })).status).toBe(200);
    const confirm = { intent: "confirm", key: randomUUID() };
    const shown = await postPage(buyer, page, confirm);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("Продавец получит");
    expect(await state()).toBe("delivered");
    expect(await balances(seller)).toMatchObject({ available: 0 });
    await confirmTwice(buyer, page, confirm, [nbsp("1 000,00 ₽")]);
    expect(await state()).toBe("completed");
    expect(await balances(seller)).toMatchObject({ available: 100_000 });
  });

  it("a refused first step answers the refusal and moves nothing: a short balance, another member's hold", async () => {
    const [alice, bob] = [await member(), await member()];
    await topUp(alice, 1_000);
    const short = await postPage(alice, "/profile/deposit", { intent: "deposit", key: randomUUID(), amount: "10,01" });
    expect(short.status).toBe(422);
    expect(short.html).toContain("Недостаточно средств на балансе");
    const sent = await api(alice, "/api/profile/payments/transfer", { recipient: bob.username, amount: 500, holdHours: 1 });
    const holdId = String((sent.body.data as { holdId: number }).holdId);
    const foreign = await postPage(bob, "/profile/wallet", { intent: "release", key: randomUUID(), holdId });
    expect(foreign.status).toBe(404);
    expect(foreign.html).toContain("Перевод с удержанием не найден");
    expect(await balances(bob)).toMatchObject({ available: 0 });
  });

  it("an admin's top-up: the first post shows the member and their balance after and credits nothing", async () => {
    const alice = await member();
    await topUp(alice, 10_000);
    const fields = { intent: "topup", key: randomUUID(), member: alice.username, amount: "250" };
    const preview = await postPage(admin, "/profile/wallet", fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(alice.username);
    expect(preview.html).toContain(nbsp("350,00 ₽"));
    expect(await balances(alice)).toMatchObject({ available: 10_000, entries: 1 });
    await confirmTwice(admin, "/profile/wallet", fields, [nbsp("250,00 ₽")]);
    expect(await balances(alice)).toMatchObject({ available: 35_000, entries: 2 });
  });

  it("cancelling a withdrawal: the first post shows the amount staying in the deposit and cancels nothing", async () => {
    const alice = await member();
    await topUp(alice, 50_000);
    expect((await api(alice, "/api/profile/payments/deposit", { amount: 30_000 })).status).toBe(200);
    const requested = await api(alice, "/api/profile/payments/deposit/withdrawal", { amount: 10_000 });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const fields = { intent: "cancel", key: randomUUID(), withdrawalId: String((requested.body.data as { id: number }).id) };
    const preview = await postPage(alice, "/profile/deposit", fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain("Останется в депозите");
    expect(await (await alice.client.fetch("/profile/deposit")).text()).toContain('data-testid="pending-withdrawal"');
    await confirmTwice(alice, "/profile/deposit", fields, [nbsp("100,00 ₽")]);
    expect(await (await alice.client.fetch("/profile/deposit")).text()).not.toContain('data-testid="pending-withdrawal"');
    expect(await balances(alice)).toEqual({ available: 20_000, deposit: 30_000, entries: 2 });
  });

  /** A deal of 1 000 ₽ (fee 50 ₽ paid by the buyer), funded by the buyer over the API. */
  async function fundedDeal() {
    const [buyer, seller] = [await member(), await member()];
    await topUp(buyer, 200_000);
    const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const created = await api(seller, "/api/guarantor/deals", {
      counterparty: buyer.username,
      role: "seller",
      amount: 100_000,
      description: "Аккаунт",
      deadline,
      feePayer: "buyer",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const deal = created.body.data as DealDto;
    for (const action of ["accept", "fund"]) expect((await api(buyer, `/api/guarantor/deals/${deal.id}/actions`, { action })).status).toBe(200);
    const state = async () => ((await (await buyer.client.fetch(`/api/guarantor/deals/${deal.id}`)).json()).data as DealDto).state;
    return { buyer, seller, deal, page: `/services/guarantor/deals/${deal.id}`, state };
  }

  it("a deal's mutual cancellation: the first post shows the buyer's refund and refunds nothing", async () => {
    const { buyer, seller, deal, page, state } = await fundedDeal();
    expect((await api(buyer, `/api/guarantor/deals/${deal.id}/actions`, { action: "request_cancel" })).status).toBe(200);
    const fields = { intent: "agree_cancel", key: randomUUID() };
    const preview = await postPage(seller, page, fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(`Вернётся покупателю (${buyer.username})`);
    expect(preview.html).toContain(nbsp("1 050,00 ₽"));
    expect(await state()).toBe("funded");
    expect(await balances(buyer)).toMatchObject({ available: 95_000 });
    await confirmTwice(seller, page, fields, [buyer.username]);
    expect(await state()).toBe("refunded");
    expect(await balances(buyer)).toMatchObject({ available: 200_000 });
  });

  it("a moderator's resolution: the first post shows who gets what and moves nothing", async () => {
    const { buyer, seller, deal, page, state } = await fundedDeal();
    expect((await api(buyer, `/api/guarantor/deals/${deal.id}/actions`, { action: "dispute", reason: "Не передал" })).status).toBe(200);
    const fields = { intent: "resolve", key: randomUUID(), resolution: "split", sellerShare: "400", note: "Пополам" };
    const preview = await postPage(moderator, page, fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(`Продавцу (${seller.username})`);
    expect(preview.html).toContain(nbsp("650,00 ₽"));
    expect(await state()).toBe("disputed");
    await confirmTwice(moderator, page, fields, [nbsp("400,00 ₽")]);
    expect(await state()).toBe("split");
    expect(await balances(seller)).toMatchObject({ available: 40_000 });
    expect(await balances(buyer)).toMatchObject({ available: 160_000 });
  });

  it("a claim upheld with compensation: the first post shows the claimant and the deposit after and pays nothing", async () => {
    const [claimant, accused] = [await member(), await member()];
    await topUp(accused, 50_000);
    expect((await api(accused, "/api/profile/payments/deposit", { amount: 30_000 })).status).toBe(200);
    const filed = await api(claimant, "/api/claims", {
      accused: accused.username,
      amount: 20_000,
      description: "Деньги получены, товар не передан",
      evidence: [],
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const page = `/claims/${(filed.body.data as { id: number }).id}`;
    const fields = { key: randomUUID(), decision: "uphold", note: "Переписка подтверждает", compensation: "150" };
    const preview = await postPage(moderator, page, fields);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(claimant.username);
    expect(preview.html).toContain(nbsp("150,00 ₽"));
    expect(await balances(claimant)).toMatchObject({ available: 0, entries: 0 });
    expect(decodeHtml(await (await moderator.client.fetch(page)).text())).not.toContain("Претензия удовлетворена");
    await confirmTwice(moderator, page, fields, [claimant.username]);
    expect(await balances(claimant)).toMatchObject({ available: 15_000 });
    expect(await balances(accused)).toMatchObject({ deposit: 15_000 });
  });
});
