/**
 * Gzip for stored visitor pages (issue 12; docs/decisions/0033-visitor-pages-before-express.md):
 * a page's fixed parts are compressed once, when it is stored, and every answer joins them with
 * the reader's CSRF token and the response's nonce without compressing the page again.
 *
 * How (RFC 1951 and 1952): each fixed part is its own raw deflate stream ended by a sync flush,
 * which leaves the output on a byte boundary without a final block; a hole's few bytes follow as
 * a stored (uncompressed) block; an empty final block ends the data, and the gzip trailer carries
 * the CRC-32 and length of the whole answer, computed per answer. A decoder reads one deflate
 * stream whose window holds everything answered so far, so each part is compressed with the text
 * before it as a preset dictionary, as compressing the page whole would see it, except that the
 * holes are NUL bytes there: a page holds no NUL (app/lib/input-guard.ts refuses it; a page
 * that does is compressed part by part without dictionaries), so no back-reference can land in
 * a hole, whose bytes differ per answer. That needs every answer's
 * holes as long as the stored page's; an answer whose are not is compressed whole.
 */
import { constants, crc32, deflateRawSync, gzipSync } from "node:zlib";

/** The gzip member header: deflate, no name or time, unknown OS (RFC 1952 §2.3). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** A final, empty block with fixed codes: BFINAL=1, BTYPE=01, end-of-block (RFC 1951 §3.2.6). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** A stored block holds at most this many bytes (RFC 1951 §3.2.4). */
const STORED_BLOCK_MAX = 0xffff;
/** Deflate's window: how far back a back-reference reaches (RFC 1951 §2). */
const WINDOW_BYTES = 32 * 1024;

/**
 * The parts of a page compressed for gzipFromParts: each ends on a byte boundary with no final
 * block, and was compressed with what precedes it (its holes as `holeLengths[i]` NUL bytes) as
 * the dictionary. Same level as the compression middleware (zlib's default).
 */
export function deflateParts(parts: readonly Buffer[], holeLengths: readonly number[]): Buffer[] {
  const deflated: Buffer[] = [];
  const withDictionaries = !parts.some((part) => part.includes(0));
  let before = Buffer.alloc(0);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    deflated.push(deflateRawSync(part, { finishFlush: constants.Z_SYNC_FLUSH, ...(before.length > 0 ? { dictionary: before } : {}) }));
    if (withDictionaries && i < holeLengths.length) {
      const window = Buffer.concat([before, part, Buffer.alloc(holeLengths[i]!)]);
      before = window.subarray(Math.max(0, window.length - WINDOW_BYTES));
    }
  }
  return deflated;
}

/**
 * The gzip encoding of `parts[0] + fills[0] + parts[1] + … + parts[n]`, where `deflatedParts`
 * is deflateParts(parts, holeLengths) and `fills` are the holes' bytes (one fewer than the
 * parts). The result gunzips to exactly those bytes; when a fill is not as long as its hole was,
 * they are put together and compressed whole.
 */
export function gzipFromParts(parts: readonly Buffer[], deflatedParts: readonly Buffer[], holeLengths: readonly number[], fills: readonly Buffer[]): Buffer {
  if (fills.some((fill, i) => fill.length !== holeLengths[i])) {
    return gzipSync(Buffer.concat(parts.flatMap((part, i) => (i < fills.length ? [part, fills[i]!] : [part]))));
  }
  const chunks: Buffer[] = [GZIP_HEADER, deflatedParts[0]!];
  let crc = crcAfter(parts[0]!, 0);
  let length = parts[0]!.length;
  for (let i = 0; i < fills.length; i++) {
    const fill = fills[i]!;
    chunks.push(...storedBlocks(fill), deflatedParts[i + 1]!);
    crc = crcAfter(parts[i + 1]!, crcAfter(fill, crc));
    length += fill.length + parts[i + 1]!.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  // ISIZE is the length modulo 2^32.
  trailer.writeUInt32LE(length % 0x1_0000_0000, 4);
  chunks.push(FINAL_BLOCK, trailer);
  return Buffer.concat(chunks);
}

/**
 * The CRC-32 `crc` continued over `bytes`. Node 20's zlib.crc32 answers 0 for some empty buffers
 * (Buffer.from("") after a few calls), which would break the trailer of a page with two holes
 * side by side: an empty part is skipped.
 */
function crcAfter(bytes: Buffer, crc: number): number {
  return bytes.length === 0 ? crc : crc32(bytes, crc);
}

/** `bytes` as non-final stored blocks, starting and ending on a byte boundary. */
function storedBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let from = 0; from < bytes.length; from += STORED_BLOCK_MAX) {
    const piece = bytes.subarray(from, from + STORED_BLOCK_MAX);
    const header = Buffer.alloc(5);
    // BFINAL=0, BTYPE=00; the rest of the byte is padding.
    header[0] = 0x00;
    header.writeUInt16LE(piece.length, 1);
    header.writeUInt16LE(~piece.length & 0xffff, 3);
    blocks.push(header, piece);
  }
  return blocks;
}
