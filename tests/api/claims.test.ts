/**
 * Claims and the blacklist over HTTP (issue 5; docs/product/claims.md): who may file,
 * read and decide a claim — signed out, another member, the parties, a moderator — with the
 * status and stable code each gets, and the public GET /api/profiles/blacklist.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";
import { member, type Member } from "./members";

const description = "Оплатил аккаунт, продавец перестал отвечать и ничего не передал.";

/** The demo moderator (dark_knight77), signed in, with the CSRF token of their pages. */
async function signInModerator(): Promise<Member> {
  const client = new Client();
  const signin = await client.signIn("moderator@shodka.local", "moder12345");
  expect(signin.status).toBeLessThan(400);
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; name: string; apiToken: string };
  const csrf = csrfFromHtml(await (await client.fetch(`/profile/${me.id}`)).text());
  return { client, id: me.id, username: me.name, apiToken: me.apiToken, csrf };
}

function postJson(who: Member | Client, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const client = who instanceof Client ? who : who.client;
  const csrf: Record<string, string> = who instanceof Client ? {} : { "X-CSRF-Token": who.csrf };
  return client.fetch(path, { method: "POST", headers: { "Content-Type": "application/json", ...csrf, ...headers }, body: JSON.stringify(body) });
}

/** POST /api/claims with a fresh Idempotency-Key unless `key` is given. */
function fileJson(who: Member | Client, body: unknown, key: string = randomUUID()): Promise<Response> {
  return postJson(who, "/api/claims", body, { "Idempotency-Key": key });
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status, await response.clone().text()).toBe(status);
  expect(await response.json()).toMatchObject({ success: false, errors: { code, message: expect.any(String) } });
}

let claimant: Member;
let accused: Member;
let stranger: Member;
let moderator: Member;

beforeAll(async () => {
  [claimant, accused, stranger, moderator] = await Promise.all([member(), member(), member(), signInModerator()]);
});

describe("POST /api/claims", () => {
  it("files a claim for a member with the CSRF header; visitors, forged and bad requests are refused", async () => {
    const victim = await member();
    const target = await member();
    const input = { accused: `@${target.username}`, amount: 123_450, description, evidence: ["https://example.com/proof.png"] };
    await expectError(await fileJson(new Client(), input), 401, "unauthorized");
    const noCsrf = await victim.client.fetch("/api/claims", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(input),
    });
    await expectError(noCsrf, 403, "csrf_invalid");
    await expectError(await postJson(victim, "/api/claims", input), 400, "invalid_idempotency_key");
    await expectError(await fileJson(victim, { ...input, accused: victim.username }), 400, "claim_against_self");
    await expectError(await fileJson(victim, { ...input, accused: "no_such_member_here" }), 404, "accused_not_found");
    const invalid = await fileJson(victim, { ...input, amount: 0, evidence: ["ftp://example.com"] });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      errors: { code: "invalid_input", fields: { amount: ["Сумма — от 0,01 до 10 000 000 ₽"], evidence: [expect.any(String)] } },
    });
    const headers = { "Content-Type": "application/json", "X-CSRF-Token": victim.csrf, "Idempotency-Key": randomUUID() };
    await expectError(await victim.client.fetch("/api/claims", { method: "POST", headers, body: "{" }), 400, "invalid_body");
    await expectError(await victim.client.fetch("/api/claims", { method: "POST", headers, body: "" }), 400, "invalid_input");

    const key = randomUUID();
    const created = await fileJson(victim, input, key);
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({
      success: true,
      data: { status: "open", claimant: { id: victim.id }, accused: { id: target.id }, amount: 123_450, evidence: ["https://example.com/proof.png"] },
    });
    // A retried submit (same key) answers the same claim instead of a conflict; a new request is one.
    const retried = await fileJson(victim, input, key);
    expect(retried.status).toBe(201);
    expect(await retried.json()).toEqual(body);
    await expectError(await fileJson(victim, { ...input, amount: 1_000 }, key), 409, "idempotency_key_reused");
    await expectError(await fileJson(victim, input), 409, "claim_already_open");
    expect((await victim.client.fetch("/api/claims")).status).toBe(405);
  });

  it("hostile input is a 400 with a stable code, never a 500, and files nothing", async () => {
    const victim = await member();
    const target = await member();
    const input = { accused: target.id, amount: 10_000, description, evidence: [] as string[] };
    const cases: [object, string][] = [
      [{ dealId: 2_147_483_648 }, "invalid_input"],
      [{ dealId: 1e300 }, "invalid_input"],
      [{ accused: 2_147_483_648 }, "accused_not_found"],
      [{ accused: `${target.username}\u0000` }, "invalid_text"],
      [{ accused: `\ud800${target.username}` }, "invalid_text"],
      [{ description: `${description}\u0000` }, "invalid_text"],
      [{ description: `${description}\ud800` }, "invalid_text"],
      [{ evidence: ["https://example.com/a\u0000"] }, "invalid_text"],
      [{ evidence: ["https://example.com/\udfff"] }, "invalid_text"],
    ];
    for (const [change, code] of cases) {
      const response = await fileJson(victim, { ...input, ...change });
      expect([response.status, (await response.json()).errors?.code], JSON.stringify(change)).toEqual([code === "accused_not_found" ? 404 : 400, code]);
    }
    expect(await (await fileJson(victim, input)).json()).toMatchObject({ success: true, data: { status: "open" } });
  });
});

describe("GET /api/claims/{id} and POST /api/claims/{id}/decision: the authorisation table", () => {
  let claimId: number;

  beforeAll(async () => {
    const response = await fileJson(claimant, { accused: accused.id, amount: 50_000, description, evidence: [] });
    expect(response.status).toBe(201);
    claimId = ((await response.json()) as { data: { id: number } }).data.id;
  });

  it("an open claim: the parties and the moderator read it; a visitor and another member get 404", async () => {
    const cases: [string, Client, number][] = [
      ["signed out", new Client(), 404],
      ["other member", stranger.client, 404],
      ["claimant", claimant.client, 200],
      ["accused", accused.client, 200],
      ["moderator", moderator.client, 200],
    ];
    for (const [who, client, status] of cases) {
      const response = await client.fetch(`/api/claims/${claimId}`);
      expect(response.status, who).toBe(status);
      const body = await response.json();
      if (status === 404) expect(body, who).toMatchObject({ success: false, errors: { code: "claim_not_found" } });
      else expect(body, who).toMatchObject({ success: true, data: { id: claimId, status: "open", amount: 50_000 } });
    }
    await expectError(await claimant.client.fetch("/api/claims/abc"), 404, "claim_not_found");
  });

  it("only the moderator decides; the decision is idempotent by the Idempotency-Key header", async () => {
    const decision = { decision: "uphold", note: "Переписка подтверждает обман" };
    const path = `/api/claims/${claimId}/decision`;
    const key = { "Idempotency-Key": `decision-${claimId}-${Date.now()}` };
    const refusals: [string, Response, number, string][] = [
      ["signed out", await postJson(new Client(), path, decision, key), 401, "unauthorized"],
      ["other member", await postJson(stranger, path, decision, key), 404, "claim_not_found"],
      ["claimant", await postJson(claimant, path, decision, key), 403, "not_moderator"],
      ["accused", await postJson(accused, path, decision, key), 403, "not_moderator"],
      ["moderator without a key", await postJson(moderator, path, decision), 400, "invalid_idempotency_key"],
      ["moderator without CSRF", await postJson(moderator.client, path, decision, key), 403, "csrf_invalid"],
      ["moderator, no note", await postJson(moderator, path, { decision: "uphold", note: "" }, key), 400, "invalid_input"],
      ["moderator, NUL in the note", await postJson(moderator, path, { decision: "uphold", note: "Обман\u0000" }, key), 400, "invalid_text"],
      ["moderator, a lone surrogate in the note", await postJson(moderator, path, { decision: "uphold", note: "Обман\ud800" }, key), 400, "invalid_text"],
      ["moderator, compensation above the deposit", await postJson(moderator, path, { ...decision, compensation: 100 }, key), 422, "insufficient_deposit"],
    ];
    for (const [who, response, status, code] of refusals) {
      expect(response.status, who).toBe(status);
      expect(await response.json(), who).toMatchObject({ success: false, errors: { code } });
    }
    // Nothing of the refusals stuck: the claim is still open and the accused is no scammer.
    expect(await (await claimant.client.fetch(`/api/claims/${claimId}`)).json()).toMatchObject({ data: { status: "open" } });
    expect(await (await new Client().fetch(`/api/profile/${accused.id}`)).json()).toMatchObject({ data: { ranks: [] } });

    const first = await postJson(moderator, path, decision, key);
    expect(first.status, await first.clone().text()).toBe(200);
    const firstBody = await first.json();
    expect(firstBody).toMatchObject({
      success: true,
      data: { status: "upheld", decisionNote: decision.note, decidedBy: { id: moderator.id }, accused: { ranks: ["SCAMMER"] } },
    });
    const retry = await postJson(moderator, path, decision, key);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(firstBody);
    await expectError(await postJson(moderator, path, decision, { "Idempotency-Key": `another-${Date.now()}` }), 409, "claim_already_decided");
    await expectError(await postJson(moderator, path, { ...decision, note: "Другая причина" }, key), 409, "idempotency_key_reused");

    // Upheld claims are public; the accused carries rank SCAMMER on their public profile.
    expect((await new Client().fetch(`/api/claims/${claimId}`)).status).toBe(200);
    expect(await (await new Client().fetch(`/api/profile/${accused.id}`)).json()).toMatchObject({ data: { ranks: ["SCAMMER"] } });
  });
});

describe("GET /api/profiles/blacklist", () => {
  it("is public, pages upheld claims newest first and shows name, reason, amount, date and claim", async () => {
    const victim = await member();
    const target = await member();
    const filed = await fileJson(victim, { accused: target.username, amount: 777_700, description, evidence: [] });
    const claimId = ((await filed.json()) as { data: { id: number } }).data.id;
    const decided = await postJson(
      moderator,
      `/api/claims/${claimId}/decision`,
      { decision: "uphold", note: "Кинул на аккаунт" },
      { "Idempotency-Key": `bl-${claimId}` },
    );
    expect(decided.status).toBe(200);

    const response = await new Client().fetch("/api/profiles/blacklist?perPage=1");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ success: true, data: { page: 1, perPage: 1, total: expect.any(Number) } });
    expect(body.data.items).toEqual([
      {
        claimId,
        accused: { id: target.id, username: target.username, displayName: null, image: null, ranks: ["SCAMMER"] },
        reason: "Кинул на аккаунт",
        amount: 777_700,
        compensation: null,
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    ]);
    expect(body.data.totalPages).toBe(body.data.total);
    const clamped = await (await new Client().fetch("/api/profiles/blacklist?perPage=500&page=oops")).json();
    expect(clamped.data).toMatchObject({ page: 1, perPage: 50 });
    expect((await new Client().fetch("/api/profiles/blacklist", { method: "POST" })).status).toBe(405);

    // ?q= searches the name and the reason (docs/product/claims.md#blacklist-search).
    const search = async (q: string) =>
      (
        (await (await new Client().fetch(`/api/profiles/blacklist?q=${encodeURIComponent(q)}`)).json()) as {
          data: { total: number; items: { claimId: number }[] };
        }
      ).data;
    expect((await search(target.username.toUpperCase())).items.map((e) => e.claimId)).toEqual([claimId]);
    expect((await search(`@${target.username}`)).items.map((e) => e.claimId)).toEqual([claimId]);
    expect((await search("кинул на АККАУНТ")).items.map((e) => e.claimId)).toContain(claimId);
    expect(await search(`${target.username}-нет-такого`)).toMatchObject({ total: 0, items: [] });
  });
});
