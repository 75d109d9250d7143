import { DEAL_HISTORY_LABELS, DEAL_STATE_LABELS, type DealTransitionDto } from "~/domain/deals/types";
import { formatDateTime } from "~/lib/format";

/** The deal's recorded transitions, oldest first: who, when, from → to, and the note if any. */
export function DealHistory({ transitions }: { transitions: DealTransitionDto[] }) {
  return (
    <ol className="grid gap-3" data-testid="deal-history">
      {transitions.map((t) => (
        <li key={t.id} className="rounded-lg border border-border p-3 text-sm">
          <div className="flex flex-wrap gap-x-3 gap-y-1">
            <span className="font-semibold">{DEAL_HISTORY_LABELS[t.action]}</span>
            <span className="text-muted-foreground">{t.actor ? t.actor.username : "Система"}</span>
            <time className="text-muted-foreground" dateTime={t.createdAt}>
              {formatDateTime(t.createdAt)}
            </time>
            <span className="ml-auto text-muted-foreground">
              {t.fromState === t.toState ? DEAL_STATE_LABELS[t.toState] : `${DEAL_STATE_LABELS[t.fromState]} → ${DEAL_STATE_LABELS[t.toState]}`}
            </span>
          </div>
          {t.note ? <p className="mt-1 whitespace-pre-wrap">{t.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}
