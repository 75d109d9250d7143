/**
 * The «Пожаловаться» control of posts, comments, wall entries, messages and profiles
 * (docs/product/moderation.md#reports). Without JavaScript it is a link to the report page
 * (/report?type=…&id=…&back=…); with it, the same form opens in a dialog and a filed report
 * closes it with a toast. A plain `<a>`, not a router Link: with JavaScript the click opens the
 * dialog and never navigates, and a router Link resolves its path on every render (50 on a post
 * page; issue 12). Shown to members only («any member reports»: a visitor's page carries
 * none, which on a post with 50 comments is 18 KB of HTML), and not on one's own items (the server
 * refuses those too).
 */
import { useCallback, useRef, useState } from "react";
import { Icon } from "~/components/ui/icon";
import { useLocation } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";
import { Button } from "~/components/ui/button";
import { REPORT_TARGET_LABELS, type ReportTargetType } from "~/domain/moderation/types";
import { cn } from "~/lib/utils";
import { useRootData } from "~/root-data";
import { ReportForm, reportHref } from "./report-form";

export interface ReportButtonProps {
  type: ReportTargetType;
  id: number;
  /** Who wrote the item (the member, for a profile): their own items have no button. */
  authorId: number;
  className?: string;
  /** The smaller, quieter footer action of a comment or wall entry (.comment-action). */
  compact?: boolean;
}

export function ReportButton({ type, id, authorId, className, compact }: ReportButtonProps) {
  const viewer = useRootData()?.viewer ?? null;
  const location = useLocation();
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => {
    dialog.current?.close();
    setOpen(false);
  }, []);
  if (viewer === null || viewer.id === authorId) return null;
  const back = `${location.pathname}${location.search}${location.hash}`;
  const openDialog = hydrated
    ? (event: React.MouseEvent) => {
        event.preventDefault();
        setOpen(true);
        dialog.current?.showModal();
      }
    : undefined;
  const content = (
    <>
      <Icon name="flag" className="size-3.5" /> Пожаловаться
    </>
  );
  return (
    <>
      {compact ? (
        // A comment's or wall entry's footer action (.comment-action): one short class on each of 50.
        <a href={reportHref(type, id, back)} rel="nofollow" data-testid="report-button" className={cn("comment-action", className)} onClick={openDialog}>
          {content}
        </a>
      ) : (
        <Button asChild variant="ghost" size="sm" className={cn("text-muted-foreground", className)}>
          <a href={reportHref(type, id, back)} rel="nofollow" data-testid="report-button" onClick={openDialog}>
            {content}
          </a>
        </Button>
      )}
      {hydrated ? (
        <dialog
          ref={dialog}
          aria-labelledby={`report-title-${type}-${id}`}
          onClose={() => setOpen(false)}
          className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-border bg-background p-6 text-foreground shadow-xl backdrop:bg-black/50"
        >
          <h2 id={`report-title-${type}-${id}`} className="mb-1 font-heading text-xl font-bold">
            Пожаловаться: {REPORT_TARGET_LABELS[type].toLowerCase()}
          </h2>
          <p className="mb-4 text-sm text-muted-foreground">Модераторы рассмотрят жалобу и сообщат вам о решении.</p>
          {open ? <ReportForm type={type} id={id} back={back} onFiled={close} onCancel={close} /> : null}
        </dialog>
      ) : null}
    </>
  );
}
