/**
 * The balance log over HTTP (issue 5, SPEC.md 7): GET /api/profile/payments/balance for a visitor
 * and for a member. Money only moves through the ledger's domain functions so far (pages come
 * next), so a new member's log is empty here; its entries are tested in app/domain/ledger.
 */
import { describe, expect, it } from "vitest";
import { Client } from "./client";

describe("GET /api/profile/payments/balance", () => {
  it("refuses a visitor with 401 and the stable code", async () => {
    const response = await new Client().fetch("/api/profile/payments/balance");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false, errors: { code: "unauthorized" } });
  });

  it("shows a new member an empty first page, clamping the page size to 50", async () => {
    const client = new Client();
    await client.register();
    const response = await client.fetch("/api/profile/payments/balance?perPage=500");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, data: { items: [], page: 1, perPage: 50, total: 0, totalPages: 1 } });
  });

  it("answers other methods with 405", async () => {
    const client = new Client();
    await client.register();
    const response = await client.fetch("/api/profile/payments/balance", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(response.status).toBe(405);
  });
});
