import { describe, expect, it } from "vitest";
import { DEAL_MIN_AMOUNT, DEAL_MIN_FEE, dealFee } from "./fees";

describe("dealFee (docs/product/deals.md#fees: 5 %, minimum 50 ₽, payer as agreed)", () => {
  it("takes 5 % of the amount above the minimum", () => {
    expect(dealFee(1_000_000, "buyer")).toEqual({ fee: 50_000, buyerFee: 50_000, sellerFee: 0 });
    expect(dealFee(1_000_000, "seller")).toEqual({ fee: 50_000, buyerFee: 0, sellerFee: 50_000 });
  });

  it("never takes less than 50 ₽, even on the smallest deal", () => {
    expect(dealFee(DEAL_MIN_AMOUNT, "buyer").fee).toBe(DEAL_MIN_FEE);
    expect(dealFee(99_999, "seller").fee).toBe(DEAL_MIN_FEE);
    // 5 % of 1 000,01 ₽ is 50,0005 ₽: just above the minimum, rounded to a whole kopeck.
    expect(dealFee(100_001, "buyer").fee).toBe(5_000);
    expect(dealFee(100_010, "buyer").fee).toBe(5_001);
  });

  it("rounds half a kopeck up", () => {
    // 5 % of 2 000,10 ₽ = 100,005 ₽ → 100,01 ₽; of 2 000,09 ₽ = 100,0045 ₽ → 100,00 ₽.
    expect(dealFee(200_010, "buyer").fee).toBe(10_001);
    expect(dealFee(200_009, "buyer").fee).toBe(10_000);
  });

  it("splits with the buyer paying the larger half of an odd fee", () => {
    expect(dealFee(200_010, "split")).toEqual({ fee: 10_001, buyerFee: 5_001, sellerFee: 5_000 });
    expect(dealFee(1_000_000, "split")).toEqual({ fee: 50_000, buyerFee: 25_000, sellerFee: 25_000 });
  });

  it("keeps the seller's share below the amount for every allowed amount", () => {
    for (const amount of [DEAL_MIN_AMOUNT, DEAL_MIN_AMOUNT + 1, 123_457, 1_000_000_000]) {
      for (const payer of ["buyer", "seller", "split"] as const) {
        const { fee, buyerFee, sellerFee } = dealFee(amount, payer);
        expect(buyerFee + sellerFee).toBe(fee);
        expect(sellerFee).toBeLessThan(amount);
      }
    }
  });

  it("refuses an amount that is not a positive whole number of kopecks", () => {
    expect(() => dealFee(0, "buyer")).toThrow(RangeError);
    expect(() => dealFee(10.5, "buyer")).toThrow(RangeError);
  });
});
