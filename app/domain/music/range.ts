/**
 * HTTP range requests for audio (RFC 9110 §14; issue 11 "audio served with HTTP range
 * requests"): what a `Range` header asks of a file of a known size. Pure.
 *
 * Only single byte ranges are served; a list of ranges («bytes=0-1,5-9») gets the whole file,
 * which RFC 9110 allows (a server may ignore Range). Browsers' media elements send one range.
 */

export type RangeAnswer =
  /** Send the whole file with 200. */
  | { kind: "full" }
  /** Send bytes start…end (inclusive) with 206 and Content-Range. */
  | { kind: "partial"; start: number; end: number }
  /** Answer 416 with `Content-Range: bytes *\/size`. */
  | { kind: "unsatisfiable" };

/**
 * The answer to `header` (the Range header, or null) for a file of `size` bytes:
 * - no header, another unit, or several ranges → full;
 * - `bytes=a-b` → partial a…min(b, size-1) when a ≤ b and a < size; `bytes=a-` → a…size-1;
 *   `bytes=-n` → the last n bytes (n > 0);
 * - a syntactically valid range that starts past the end, or `bytes=-0` → unsatisfiable;
 * - a malformed bytes range (letters, b < a) → unsatisfiable, so a broken client hears about it.
 */
export function answerRange(header: string | null, size: number): RangeAnswer {
  if (header === null) return { kind: "full" };
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!match) return { kind: "full" };
  const spec = match[1]!.trim();
  if (spec.includes(",")) return { kind: "full" };
  const range = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!range || (range[1] === "" && range[2] === "")) return { kind: "unsatisfiable" };
  if (range[1] === "") {
    const suffix = Number(range[2]);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(range[1]);
  const end = range[2] === "" ? size - 1 : Number(range[2]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start || start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end: Math.min(end, size - 1) };
}
