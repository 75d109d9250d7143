/**
 * The moderator's panel on a post page (docs/product/moderation.md#content-actions): delete or
 * restore it, close or open its comments, pin or unpin it on the home feed (at most 3), move it
 * to another category. Shown to moderators and admins only; every control is a form.
 */
import { ArchiveRestore, Lock, LockOpen, MoveRight, Pin, PinOff, ShieldAlert, Trash2 } from "lucide-react";
import { CATEGORIES } from "~/domain/posts/categories";
import { ModerationForm } from "./moderation-button";

export interface PostModerationPanelProps {
  post: { id: number; deleted: boolean; hidden: boolean; pinned: boolean; commentsClosed: boolean; category: { id: number } };
}

export function PostModerationPanel({ post }: PostModerationPanelProps) {
  return (
    <section aria-labelledby="post-moderation-heading" data-testid="post-moderation" className="mt-6 rounded-xl border border-amber-500/40 bg-amber-500/5 p-4">
      <h2 id="post-moderation-heading" className="flex items-center gap-2 text-sm font-semibold">
        <ShieldAlert aria-hidden className="size-4 text-amber-600" /> Модерация
      </h2>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        {post.deleted ? (
          <ModerationForm intent="restore" type="post" id={post.id}>
            <ArchiveRestore aria-hidden /> Восстановить пост
          </ModerationForm>
        ) : (
          <>
            <ModerationForm intent="delete" type="post" id={post.id} variant="destructive">
              <Trash2 aria-hidden /> Удалить пост
            </ModerationForm>
            <ModerationForm intent={post.commentsClosed ? "open" : "close"} id={post.id}>
              {post.commentsClosed ? <LockOpen aria-hidden /> : <Lock aria-hidden />}
              {post.commentsClosed ? "Открыть комментарии" : "Закрыть комментарии"}
            </ModerationForm>
            <ModerationForm intent={post.pinned ? "unpin" : "pin"} id={post.id}>
              {post.pinned ? <PinOff aria-hidden /> : <Pin aria-hidden />}
              {post.pinned ? "Открепить с главной" : "Закрепить на главной"}
            </ModerationForm>
            <ModerationForm
              intent="move"
              id={post.id}
              fields={
                <>
                  <label htmlFor={`move-category-${post.id}`} className="sr-only">
                    Раздел
                  </label>
                  <select
                    id={`move-category-${post.id}`}
                    name="categoryId"
                    defaultValue={post.category.id}
                    className="h-8 rounded-md border border-input bg-background px-2 text-sm"
                  >
                    {CATEGORIES.map((category) => (
                      <option key={category.id} value={category.id}>
                        {category.name}
                      </option>
                    ))}
                  </select>
                </>
              }
            >
              <MoveRight aria-hidden /> Перенести
            </ModerationForm>
          </>
        )}
      </div>
    </section>
  );
}
