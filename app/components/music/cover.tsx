import { Music } from "lucide-react";
import type { TrackDto } from "~/domain/music/types";
import { optimizedImageUrl } from "~/lib/images/widths";
import { cn } from "~/lib/utils";

/** A track's cover through the image endpoint, or a note on the primary colour. */
export function Cover({ track, className }: { track: Pick<TrackDto, "coverUrl" | "title">; className?: string }) {
  return track.coverUrl ? (
    <img src={optimizedImageUrl(track.coverUrl, { width: 320 })} alt="" className={cn("shrink-0 rounded-md object-cover", className)} loading="lazy" />
  ) : (
    <div aria-hidden className={cn("grid shrink-0 place-items-center rounded-md bg-primary/15 text-primary", className)}>
      <Music className="size-1/2" />
    </div>
  );
}
