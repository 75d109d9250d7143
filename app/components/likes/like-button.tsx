import { Heart } from "lucide-react";
import type { LikeTarget } from "~/lib/events.server";

/** STUB: the likes helper makes this a form posting to /likes (optimistic with JavaScript). */
export function LikeButton({ count }: { target: LikeTarget; targetId: number; liked: boolean; count: number; disabled?: boolean }) {
  return (
    <span className="inline-flex items-center gap-1 text-sm text-muted-foreground">
      <Heart aria-hidden className="size-4" /> {count}
    </span>
  );
}
