import { Link } from "~/components/ui/link";
import { CATEGORIES } from "~/domain/posts/categories";
import { cn } from "~/lib/utils";

/** Category chips as plain links (?category=N), so filtering works without JavaScript. */
export function CategoryFilter({ basePath, current }: { basePath: string; current: number | undefined }) {
  const chip = (active: boolean) =>
    cn(
      "inline-flex shrink-0 items-center whitespace-nowrap rounded-full border px-3 py-1 text-sm transition-colors max-md:min-h-11",
      active ? "border-primary bg-primary text-primary-foreground" : "border-border bg-card hover:border-primary/50",
    );
  // On phones the chips are 44 px tall and scroll sideways in one row instead of stacking up.
  return (
    <nav
      aria-label="Категории"
      className="flex flex-wrap gap-2 max-md:-mx-4 max-md:flex-nowrap max-md:overflow-x-auto max-md:overscroll-x-contain max-md:px-4 max-md:pb-1"
    >
      <Link to={basePath} className={chip(current === undefined)} aria-current={current === undefined ? "page" : undefined}>
        Все
      </Link>
      {CATEGORIES.map((category) => (
        <Link
          key={category.id}
          to={`${basePath}?category=${category.id}`}
          className={chip(current === category.id)}
          aria-current={current === category.id ? "page" : undefined}
        >
          {category.name}
        </Link>
      ))}
    </nav>
  );
}
