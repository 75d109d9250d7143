import { describe, expect, it } from "vitest";
import { parsePageParams, toPage } from "./pagination";

describe("parsePageParams", () => {
  it("defaults to page 1 of 10", () => {
    expect(parsePageParams(new URLSearchParams())).toEqual({ page: 1, perPage: 10 });
  });
  it("clamps perPage to 50 and page to at least 1", () => {
    expect(parsePageParams(new URLSearchParams("page=0&perPage=500"))).toEqual({ page: 1, perPage: 50 });
  });
  it("ignores malformed values", () => {
    expect(parsePageParams(new URLSearchParams("page=abc&perPage=-3"))).toEqual({ page: 1, perPage: 10 });
  });
});

describe("toPage", () => {
  it("counts pages, at least one", () => {
    expect(toPage([], 0, { page: 1, perPage: 10 }).totalPages).toBe(1);
    expect(toPage([], 21, { page: 1, perPage: 10 }).totalPages).toBe(3);
  });
});
