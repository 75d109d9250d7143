import { Link } from "react-router";
import { CATEGORIES } from "~/domain/posts/categories";
import { cn } from "~/lib/utils";

/** Category chips as plain links (?category=N), so filtering works without JavaScript. */
export function CategoryFilter({ basePath, current }: { basePath: string; current: number | undefined }) {
  const chip = (active: boolean) =>
    cn(
      "whitespace-nowrap rounded-full border px-3 py-1 text-sm transition-colors",
      active ? "border-primary bg-primary text-primary-foreground" : "border-border bg-card hover:border-primary/50",
    );
  return (
    <nav aria-label="Категории" className="flex flex-wrap gap-2">
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
