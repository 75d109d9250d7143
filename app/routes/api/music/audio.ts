/**
 * GET|HEAD /api/music/{id}/audio — a track's audio with HTTP range requests, so the player can
 * seek (issue 11; docs/decisions/0015-audio-serving-and-the-player.md): `Accept-Ranges: bytes` always; a single
 * `Range: bytes=…` answers 206 with `Content-Range: bytes a-b/size`; a range past the end or a
 * malformed one answers 416 with `Content-Range: bytes *\/size`; `If-Range` with another ETag
 * gets the whole file. A track's audio never changes (a new file is a new track), so the strong
 * ETag is its storage key. Errors are JSON: 404 `track_not_found`.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/audio";
import { answerRange } from "~/domain/music/range";
import { getTrackAudio } from "~/domain/music/tracks.server";
import { handleApi, NotFound } from "~/lib/errors";
import { getStorage } from "~/lib/storage/storage.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const track = await getTrackAudio(context.db, Number(params.id));
    const storage = getStorage(context.config);
    const size = track ? await storage.size(track.audioKey) : null;
    if (!track || size === null) throw new NotFound("Трек не найден", "track_not_found");
    const etag = `"${track.audioKey.replace(/[^a-z0-9.]/gi, "-")}"`;
    const headers = new Headers({
      "Content-Type": track.audioType,
      "Accept-Ranges": "bytes",
      "Cache-Control": "public, max-age=86400",
      ETag: etag,
      "Last-Modified": track.updatedAt.toUTCString(),
    });
    if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
    const ifRange = request.headers.get("If-Range");
    const range = ifRange !== null && ifRange !== etag ? { kind: "full" as const } : answerRange(request.headers.get("Range"), size);
    if (range.kind === "unsatisfiable") {
      headers.set("Content-Range", `bytes */${size}`);
      headers.set("Content-Type", "text/plain; charset=utf-8");
      return new Response("Запрошенный диапазон вне файла", { status: 416, headers });
    }
    const [start, end] = range.kind === "partial" ? [range.start, range.end] : [0, size - 1];
    headers.set("Content-Length", String(end - start + 1));
    if (range.kind === "partial") headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
    const status = range.kind === "partial" ? 206 : 200;
    if (request.method === "HEAD") return new Response(null, { status, headers });
    const body = await storage.stream(track.audioKey, start, end);
    if (!body) throw new NotFound("Трек не найден", "track_not_found");
    return new Response(body, { status, headers });
  });
}
