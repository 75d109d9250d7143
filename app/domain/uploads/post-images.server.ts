/**
 * Pictures members upload into the text of their posts (docs/product/content.md#post-editor):
 * stored under `posts/{memberId}/{random}.webp` in the site's file storage and shown through the
 * image endpoint like every other picture of the site (docs/product/interface.md#images).
 */
import { randomBytes } from "node:crypto";
import type { Db } from "~/db/client.server";
import { processPostImage } from "~/lib/images/post-image.server";
import { consumeLimit } from "~/lib/rate-limit.server";
import type { FileStorage } from "~/lib/storage/storage.server";
import { assertMayPublish } from "../moderation/sanctions.server";

/** The Russian message of the image-upload rate limit (docs/product/limits.md#rate-limits), for post and chat pictures. */
export const IMAGE_RATE_MESSAGE = "Слишком много изображений подряд. Попробуйте позже.";

/**
 * Stores picture `upload` for member `actor` and returns its public URL (`/uploads/posts/…webp`
 * on local storage), to put in Markdown as `![](url)`. Counted against `LIMITS.imageUploads`
 * (docs/product/limits.md#rate-limits). Throws MemberMuted / AccountSuspended while the member
 * is sanctioned, RateLimited (429), ValidationFailed (field `image`) `image_empty`,
 * `image_too_large`, `image_unsupported_type`.
 */
export async function uploadPostImage(db: Db, storage: FileStorage, actor: { id: number }, upload: Uint8Array): Promise<{ url: string }> {
  await assertMayPublish(db, actor.id);
  const picture = await processPostImage(upload);
  await consumeLimit(db, "imageUploads", String(actor.id), IMAGE_RATE_MESSAGE);
  const key = `posts/${actor.id}/${randomBytes(12).toString("hex")}.webp`;
  await storage.put(key, picture.bytes, picture.contentType);
  return { url: storage.publicUrl(key) };
}
