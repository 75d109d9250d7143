import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.server";

describe("password hashing (argon2id)", () => {
  it("hashes at OWASP's minimum by default: 19 MiB, two passes, a fresh salt each time", async () => {
    const first = await hashPassword("correct horse battery", "standard");
    const second = await hashPassword("correct horse battery", "standard");
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword(first, "correct horse battery")).toBe(true);
    expect(await verifyPassword(first, "correct horse batterY")).toBe(false);
  });

  it("hashes cheaply only when a test run asks, and either kind of hash verifies whatever the setting", async () => {
    const cheap = await hashPassword("correct horse battery", "fast-insecure-for-tests");
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    const standard = await hashPassword("correct horse battery", "standard");
    for (const stored of [cheap, standard]) {
      expect(await verifyPassword(stored, "correct horse battery")).toBe(true);
      expect(await verifyPassword(stored, "wrong horse battery")).toBe(false);
    }
  });

  it("takes the setting from PASSWORD_HASHING when none is given (this test run's: the fast one)", async () => {
    expect(process.env.PASSWORD_HASHING).toBe("fast-insecure-for-tests");
    expect(await hashPassword("correct horse battery")).toMatch(/\$m=256,t=1,/);
  });

  it("refuses a malformed stored hash instead of throwing", async () => {
    expect(await verifyPassword("not-a-hash", "correct horse battery")).toBe(false);
  });
});
