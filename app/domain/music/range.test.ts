import { describe, expect, it } from "vitest";
import { answerRange } from "./range";

describe("answerRange (HTTP range requests for audio)", () => {
  const size = 1000;
  it.each([
    [null, { kind: "full" }],
    ["items=0-10", { kind: "full" }],
    ["bytes=0-9,20-29", { kind: "full" }],
    ["bytes=0-", { kind: "partial", start: 0, end: 999 }],
    ["bytes=0-0", { kind: "partial", start: 0, end: 0 }],
    ["bytes=100-199", { kind: "partial", start: 100, end: 199 }],
    ["bytes=900-5000", { kind: "partial", start: 900, end: 999 }],
    ["bytes=999-", { kind: "partial", start: 999, end: 999 }],
    ["bytes=-100", { kind: "partial", start: 900, end: 999 }],
    ["bytes=-5000", { kind: "partial", start: 0, end: 999 }],
    ["Bytes = 10 - 19", { kind: "partial", start: 10, end: 19 }],
    ["bytes=1000-", { kind: "unsatisfiable" }],
    ["bytes=5000-6000", { kind: "unsatisfiable" }],
    ["bytes=20-10", { kind: "unsatisfiable" }],
    ["bytes=-0", { kind: "unsatisfiable" }],
    ["bytes=-", { kind: "unsatisfiable" }],
    ["bytes=abc", { kind: "unsatisfiable" }],
    ["bytes=99999999999999999999-", { kind: "unsatisfiable" }],
  ])("%s → %j", (header, answer) => {
    expect(answerRange(header, size)).toEqual(answer);
  });

  it("an empty file has no satisfiable range", () => {
    expect(answerRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
    expect(answerRange("bytes=-1", 0)).toEqual({ kind: "unsatisfiable" });
  });
});
