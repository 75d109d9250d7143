/**
 * A running ad as pages show it (docs/product/pages.md#ads): the label «Реклама», the title
 * linking through the click counter with rel="sponsored noopener", the text, the picture and the
 * host it leads to. A plain link (not client-side navigation): the counter answers a redirect.
 */
import type { RunningAdDto } from "~/domain/ads/types";
import { AD_LABEL, AD_LINK_REL } from "~/domain/ads/types";
import { cn } from "~/lib/utils";

export function AdCard({ ad, className, layout = "row" }: { ad: RunningAdDto; className?: string; layout?: "row" | "column" }) {
  return (
    <aside
      aria-label={`${AD_LABEL}: ${ad.title}`}
      data-testid="ad"
      data-placement={ad.placement}
      className={cn("relative flex gap-4 rounded-xl border border-dashed border-border bg-card p-4 shadow-sm", layout === "column" && "flex-col", className)}
    >
      {ad.imageUrl ? (
        <a href={ad.href} rel={AD_LINK_REL} tabIndex={-1} aria-hidden className={cn("shrink-0", layout === "row" ? "w-32 sm:w-40" : "w-full")}>
          <img src={ad.imageUrl} alt="" loading="lazy" className="h-full max-h-32 w-full rounded-lg object-cover" />
        </a>
      ) : null}
      <div className="grid min-w-0 content-start gap-1">
        <span className="w-fit rounded bg-muted px-1.5 py-0.5 text-xs font-medium text-muted-foreground">{AD_LABEL}</span>
        <a href={ad.href} rel={AD_LINK_REL} className="font-heading text-lg font-bold text-foreground hover:text-primary hover:underline">
          {ad.title}
        </a>
        <p className="text-sm break-words text-muted-foreground">{ad.body}</p>
        <p className="truncate text-xs text-muted-foreground">{ad.host}</p>
      </div>
    </aside>
  );
}

/** The running ads of one placement, or nothing. */
export function AdPlacementBlock({ ads, placement, className }: { ads: RunningAdDto[]; placement: RunningAdDto["placement"]; className?: string }) {
  const here = ads.filter((ad) => ad.placement === placement);
  if (here.length === 0) return null;
  return (
    <div className={cn("grid gap-3", placement === "sidebar" && "sm:grid-cols-2 lg:grid-cols-3", className)} data-testid={`ads-${placement}`}>
      {here.map((ad) => (
        <AdCard key={ad.id} ad={ad} layout={placement === "sidebar" ? "column" : "row"} />
      ))}
    </div>
  );
}
