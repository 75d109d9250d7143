import { ExternalLink } from "lucide-react";
import { isEvidenceLink } from "~/domain/claims/types";

/**
 * A claim's evidence as external links. They are what a member typed, so they open in a new tab
 * without the opener and with rel="nofollow noopener ugc" (user-generated, not endorsed); only
 * http(s) links are ever rendered as links.
 */
export function EvidenceLinks({ links }: { links: string[] }) {
  if (links.length === 0) return <p className="text-sm text-muted-foreground">Доказательства не приложены.</p>;
  return (
    <ol className="grid list-decimal gap-1 pl-5 text-sm" data-testid="claim-evidence">
      {links.map((link, i) =>
        isEvidenceLink(link) ? (
          <li key={`${i}-${link}`}>
            <a href={link} target="_blank" rel="nofollow noopener ugc" className="inline-flex items-center gap-1 break-all text-primary hover:underline">
              {link}
              <ExternalLink aria-hidden className="size-3 shrink-0" />
            </a>
          </li>
        ) : (
          <li key={`${i}-${link}`} className="break-all">
            {link}
          </li>
        ),
      )}
    </ol>
  );
}
