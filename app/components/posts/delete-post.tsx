import { useNavigation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Trash2 } from "lucide-react";
import { Button } from "~/components/ui/button";
import { plural } from "~/lib/format";

/** What deleting a post does, said on the confirmation page and in the post page's in-place question. */
export function deleteConsequences(commentCount: number): string {
  const comments =
    commentCount > 0 ? ` ${commentCount} ${plural(commentCount, ["комментарий", "комментария", "комментариев"])} к нему тоже перестанут быть видны.` : "";
  return `Пост исчезнет из ленты, поиска и вашего профиля.${comments} Восстановить его будет нельзя.`;
}

/**
 * «Удалить» on the author's own post (docs/product/content.md#posts). Without JavaScript it is a
 * link to the confirmation page /post/{id}/delete; with it `onAsk` opens DeletePostQuestion in place.
 */
export function DeletePostButton({ postId, asking, onAsk }: { postId: number; asking: boolean; onAsk: () => void }) {
  return (
    <Button asChild variant="outline" size="sm" className="min-h-11 sm:min-h-8">
      <Link
        to={`/post/${postId}/delete`}
        aria-expanded={asking}
        onClick={(event) => {
          event.preventDefault();
          onAsk();
        }}
      >
        <Trash2 aria-hidden className="size-4" /> Удалить
      </Link>
    </Button>
  );
}

/** The in-place question after «Удалить»: its form posts to /post/{id}/delete, as the page's does. */
export function DeletePostQuestion({ postId, title, commentCount, onCancel }: { postId: number; title: string; commentCount: number; onCancel: () => void }) {
  const navigation = useNavigation();
  const action = `/post/${postId}/delete`;
  const deleting = navigation.state !== "idle" && navigation.formAction === action;
  return (
    <div role="alertdialog" aria-labelledby="delete-post-title" className="mt-4 rounded-lg border border-destructive/40 bg-destructive/5 p-4">
      <p id="delete-post-title" className="font-semibold">
        {`Удалить пост «${title}»?`}
      </p>
      <p className="mt-1 text-sm text-muted-foreground">{deleteConsequences(commentCount)}</p>
      <Form method="post" action={action} className="mt-3 flex flex-wrap gap-2">
        <AuthenticityTokenInput />
        <Button type="submit" variant="destructive" className="min-h-11" disabled={deleting} autoFocus>
          {deleting ? "Удаляем…" : "Удалить пост"}
        </Button>
        <Button type="button" variant="outline" className="min-h-11" onClick={onCancel}>
          Отмена
        </Button>
      </Form>
    </div>
  );
}
