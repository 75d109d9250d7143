/**
 * /posts/new/preview: the post editor's «Предпросмотр» posts here; the page shows the
 * rendered Markdown above the same form, from which the post can be published.
 */
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/preview";
import { PostForm } from "~/components/posts/post-form";
import { Badge } from "~/components/ui/badge";
import { findCategory } from "~/domain/posts/categories";
import { BODY_MAX, TITLE_MAX } from "~/domain/posts/schemas";
import { pageData } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { renderMarkdown } from "~/lib/markdown.server";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Предпросмотр поста");

export async function action({ request }: Route.ActionArgs) {
  const form = await pageData(() => readForm(request));
  const text = (name: string, max: number) => String(form.get(name) ?? "").slice(0, max);
  const values = {
    title: text("title", TITLE_MAX),
    body: text("body", BODY_MAX),
    categoryId: text("categoryId", 2),
    kind: form.get("kind") === "article" ? ("article" as const) : ("post" as const),
  };
  return { values, html: renderMarkdown(values.body), categoryName: findCategory(Number(values.categoryId))?.name ?? null };
}

export default function PreviewPage({ actionData }: Route.ComponentProps) {
  if (!actionData) {
    return (
      <div className="mx-auto max-w-3xl rounded-xl border border-dashed border-border p-10 text-center">
        <h1 className="font-heading text-2xl font-bold">Предпросмотр</h1>
        <p className="mt-2 text-muted-foreground">Здесь появится ваш пост, когда вы нажмёте «Предпросмотр» в редакторе.</p>
        <Link to="/posts/new" className="mt-4 inline-block font-medium text-primary hover:underline">
          Написать пост
        </Link>
      </div>
    );
  }
  const { values, html, categoryName } = actionData;
  return (
    <div className="mx-auto grid max-w-3xl gap-8 lg:max-w-6xl">
      <section aria-label="Предпросмотр" className="rounded-xl border-2 border-dashed border-primary/40 bg-card p-6">
        <p className="mb-3 text-xs font-semibold uppercase tracking-wider text-primary">Предпросмотр — пост ещё не опубликован</p>
        {categoryName ? <Badge variant="secondary">{categoryName}</Badge> : null}
        <h1 className="mt-2 font-heading text-3xl font-extrabold">{values.title || "Без заголовка"}</h1>
        <div className="prose-post mt-4" dangerouslySetInnerHTML={{ __html: html }} />
      </section>
      <section className="grid gap-4">
        <h2 className="font-heading text-xl font-bold">Редактирование</h2>
        <PostForm key={JSON.stringify(values)} action="/posts/new" submitLabel="Опубликовать" defaultValue={values} withPreview draftKey="new" />
      </section>
    </div>
  );
}
