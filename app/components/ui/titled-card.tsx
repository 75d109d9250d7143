import { cn } from "~/lib/utils";

/**
 * A card with a heading (h2) that names it for assistive technology, an optional description
 * under the heading, and its content. The settings and admin pages build their sections on it.
 */
export function TitledCard({
  id,
  title,
  description,
  className,
  testId,
  children,
}: {
  /** The section's id: its heading is `${id}-title`. */
  id: string;
  title: string;
  description?: React.ReactNode;
  className?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <section className={cn("titled-card", className)} aria-labelledby={`${id}-title`} data-testid={testId}>
      <div>
        <h2 id={`${id}-title`} className="font-heading text-xl font-bold">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}
