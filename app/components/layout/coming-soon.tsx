import { Link } from "react-router";
import { Hammer } from "lucide-react";
import { Button } from "~/components/ui/button";

/** Titles of the pages later issues fill, by path (docs/product/routes.md#pages). */
export const PLACEHOLDER_TITLES: Record<string, string> = {
  "/faq": "Вопросы и ответы",
  "/music": "Музыка",
  "/admin/stats": "Статистика",
  "/ads": "Реклама",
  "/chatgpt": "Ассистент",
};

export function placeholderTitle(pathname: string): string {
  return PLACEHOLDER_TITLES[pathname.replace(/\/$/, "")] ?? "Раздел";
}

/** An honest placeholder for a section that is being built. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center" data-testid="coming-soon">
      <Hammer aria-hidden className="size-12 text-primary" strokeWidth={1.5} />
      <h1 className="font-heading text-3xl font-extrabold">{title}</h1>
      <p className="text-muted-foreground">Раздел скоро появится: мы уже над ним работаем.</p>
      <Button asChild variant="outline">
        <Link to="/">На главную</Link>
      </Button>
    </section>
  );
}
