import * as React from "react";
import { Link } from "~/components/ui/link";

import { cn } from "~/lib/utils";
import { buttonVariants } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";

export type PaginationItem = number | "ellipsis";

function toInt(value: number, fallback: number): number {
  return Number.isFinite(value) ? Math.floor(value) : fallback;
}

function range(start: number, end: number): number[] {
  const out: number[] = [];
  for (let i = start; i <= end; i++) out.push(i);
  return out;
}

/**
 * Page numbers to display: always the first and last page, `siblingCount` pages on each side
 * of the current one, and "ellipsis" for gaps of two or more pages. When there is room, the
 * list always has `2 * siblingCount + 5` items so the control does not jump around.
 */
export function paginationRange(page: number, totalPages: number, siblingCount = 2): PaginationItem[] {
  const total = Math.max(0, toInt(totalPages, 0));
  if (total === 0) return [];
  const siblings = Math.max(0, toInt(siblingCount, 2));
  const current = Math.min(Math.max(1, toInt(page, 1)), total);

  // first + last + current + 2 ellipses + siblings on both sides
  const maxItems = 2 * siblings + 5;
  if (total <= maxItems) return range(1, total);

  // Window of siblings, shifted so that it never touches the first/last two slots.
  const start = Math.max(Math.min(current - siblings, total - 2 * siblings - 2), 3);
  const end = Math.min(Math.max(current + siblings, 2 * siblings + 3), total - 2);

  return [1, start > 3 ? "ellipsis" : 2, ...range(start, end), end < total - 2 ? "ellipsis" : total - 1, total];
}

export type PaginationProps = {
  page: number;
  totalPages: number;
  makeHref: (page: number) => string;
  siblingCount?: number;
  className?: string;
};

const itemClass = cn(buttonVariants({ variant: "ghost" }), "h-9 min-w-9 px-2.5 max-md:h-11 max-md:min-w-11");

function NavLink({
  to,
  label,
  srOnlyOnMobile,
  children,
  icon,
  iconAfter,
  rel,
}: {
  to: string | null;
  label: string;
  srOnlyOnMobile?: boolean;
  children?: React.ReactNode;
  icon: React.ReactNode;
  iconAfter?: boolean;
  rel?: string;
}) {
  const content = (
    <>
      {iconAfter ? null : icon}
      {children ? <span className={cn(srOnlyOnMobile && "sr-only sm:not-sr-only")}>{children}</span> : <span className="sr-only">{label}</span>}
      {iconAfter ? icon : null}
    </>
  );

  if (to === null) {
    return (
      <span aria-disabled="true" className={cn(itemClass, "pointer-events-none opacity-50")} title={children ? undefined : label}>
        {content}
      </span>
    );
  }
  return (
    <Link to={to} rel={rel} className={itemClass} title={children ? undefined : label}>
      {content}
    </Link>
  );
}

/** Server-rendered pagination made of plain links (works without JavaScript). */
export function Pagination({ page, totalPages, makeHref, siblingCount = 2, className }: PaginationProps) {
  const total = Math.max(0, toInt(totalPages, 0));
  if (total <= 1) return null;
  const current = Math.min(Math.max(1, toInt(page, 1)), total);
  const items = paginationRange(current, total, siblingCount);
  const hasPrev = current > 1;
  const hasNext = current < total;

  return (
    <nav aria-label="Страницы" className={cn("mx-auto flex w-full justify-center", className)}>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          <NavLink to={hasPrev ? makeHref(1) : null} label="Первая страница" icon={<Icon name="chevrons-left" />} />
        </li>
        <li>
          <NavLink to={hasPrev ? makeHref(current - 1) : null} label="Назад" rel="prev" srOnlyOnMobile icon={<Icon name="chevron-left" />}>
            Назад
          </NavLink>
        </li>
        {items.map((item, index) =>
          item === "ellipsis" ? (
            <li key={`ellipsis-${index}`} aria-hidden="true">
              <span className="flex size-9 max-md:size-11 items-center justify-center text-muted-foreground">
                <Icon name="ellipsis" className="size-4" />
              </span>
            </li>
          ) : (
            <li key={item}>
              <Link
                to={makeHref(item)}
                aria-label={`Страница ${item}`}
                aria-current={item === current ? "page" : undefined}
                className={cn(
                  itemClass,
                  "tabular-nums",
                  item === current && "border border-input bg-background shadow-xs font-semibold text-primary hover:bg-accent",
                )}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          <NavLink to={hasNext ? makeHref(current + 1) : null} label="Вперёд" rel="next" srOnlyOnMobile iconAfter icon={<Icon name="chevron-right" />}>
            Вперёд
          </NavLink>
        </li>
        <li>
          <NavLink to={hasNext ? makeHref(total) : null} label="Последняя страница" icon={<Icon name="chevrons-right" />} />
        </li>
      </ul>
    </nav>
  );
}
