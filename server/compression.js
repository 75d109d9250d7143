import compression from "compression";

/**
 * The compression filter: never compress server-sent events, since gzip holds frames back
 * until its buffer fills; everything else follows the compression package's defaults.
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 * @returns {boolean}
 */
export function shouldCompress(req, res) {
  const type = String(res.getHeader("Content-Type") ?? "");
  if (type.startsWith("text/event-stream")) return false;
  return compression.filter(req, res);
}
