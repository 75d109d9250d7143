/**
 * The wall on a public profile (docs/product/content.md#wall): the form to write (members not blocked
 * by the owner), the pinned entry on top of the first page, then entries newest first with
 * likes, delete (author or owner) and pin (owner), paginated by `?wallPage=`.
 * Every control is a form that works without JavaScript; with it, fetchers answer in place:
 * a new entry shows at once while it is sent, a deleted one disappears at once.
 */
import { RelativeTime } from "~/components/ui/relative-time";
import { Icon } from "~/components/ui/icon";
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useFetcher, useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FormErrors } from "~/components/forms/form-errors";
import { LikeButton } from "~/components/likes/like-button";
import { ModerationForm, useIsModerator } from "~/components/moderation/moderation-button";
import { ReportButton } from "~/components/moderation/report-button";
import { BackInput, JsMarker, useLoginHref } from "~/components/people/form-bits";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { Textarea } from "~/components/ui/textarea";
import { RankBadges } from "~/components/users/rank-badges";
import { WALL_POST_MAX, WallPostInputSchema } from "~/domain/wall/schemas";
import type { ShownWall, ShownWallPost } from "~/domain/wall/wall.server";
import { withSearchParam } from "~/lib/url";
import type { WallActionData } from "~/routes/profile/wall";
import { MemberAvatar, MemberName } from "~/components/users/trust-card";
import { formatCount } from "~/lib/format";

const createKey = (ownerId: number) => `wall-create-${ownerId}`;

export function WallSection({ ownerId, wall, viewerId, canWrite }: { ownerId: number; wall: ShownWall; viewerId: number | null; canWrite: boolean }) {
  const location = useLocation();
  const loginHref = useLoginHref();
  const creating = useFetcher<WallActionData>({ key: createKey(ownerId) });
  const pendingBody = creating.state !== "idle" ? creating.formData?.get("body") : null;
  const { entries, pinned } = wall;
  const showPinned = pinned !== null && entries.page === 1;
  const empty = entries.items.length === 0 && !showPinned && !pendingBody;
  return (
    <section id="wall" aria-labelledby="wall-heading" className="grid gap-4" data-testid="wall">
      <h2 id="wall-heading" className="font-heading text-xl font-bold">
        Стена
      </h2>
      {viewerId === null ? (
        <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-foreground">
          Чтобы написать на стене,{" "}
          <Link to={loginHref} className="font-medium text-primary hover:underline">
            войдите
          </Link>
          .
        </p>
      ) : canWrite ? (
        <WallForm ownerId={ownerId} />
      ) : (
        <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-foreground">
          Владелец стены ограничил вам возможность писать на ней.
        </p>
      )}
      {typeof pendingBody === "string" && pendingBody.trim() ? (
        <article aria-busy="true" className="rounded-xl border border-border bg-card p-4 opacity-70 shadow-sm">
          <p className="text-xs text-muted-foreground">Публикуем…</p>
          <p className="mt-2 whitespace-pre-line break-words">{pendingBody}</p>
        </article>
      ) : null}
      {showPinned ? <WallEntry entry={pinned} viewerId={viewerId} /> : null}
      {entries.items.map((entry) => (
        <WallEntry key={entry.id} entry={entry} viewerId={viewerId} />
      ))}
      {empty ? <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground">На стене пока нет записей.</p> : null}
      <Pagination
        page={entries.page}
        totalPages={entries.totalPages}
        makeHref={(page) => `${withSearchParam(location.pathname, location.search, "wallPage", page)}#wall`}
      />
    </section>
  );
}

/**
 * The form that writes on the wall of `ownerId`. `lastResult` is the refused submission
 * when the page was rendered by the action (JavaScript off); with JavaScript the fetcher's
 * answer is used, and a published entry clears the form.
 */
export function WallForm({ ownerId, lastResult }: { ownerId: number; lastResult?: SubmissionResult<string[]> | null }) {
  const fetcher = useFetcher<WallActionData>({ key: createKey(ownerId) });
  const [form, fields] = useForm({
    id: `wall-form-${ownerId}`,
    lastResult: fetcher.data?.result ?? lastResult,
    constraint: getZodConstraint(WallPostInputSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: WallPostInputSchema }),
  });
  const submitting = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={`/profile/${ownerId}/wall`} className="grid gap-3" {...getFormProps(form)}>
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="create" />
      <BackInput />
      <JsMarker />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="Новая запись"
        id={fields.body.id}
        errors={fields.body.errors}
        description={`Поддерживается Markdown; @имя упоминает участника. До ${formatCount(WALL_POST_MAX)} символов.`}
      >
        <Textarea {...getTextareaProps(fields.body)} rows={3} placeholder="Напишите что-нибудь…" />
      </Field>
      <div>
        <Button type="submit" disabled={submitting}>
          {submitting ? "Публикуем…" : "Написать на стене"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

/** One entry: author, time, the rendered text, its like button and the controls the viewer may use. */
function WallEntry({ entry, viewerId }: { entry: ShownWallPost; viewerId: number | null }) {
  const deleting = useFetcher<WallActionData>();
  const pinning = useFetcher<WallActionData>();
  const moderator = useIsModerator();
  if (deleting.formData?.get("intent") === "delete") return null;
  const isOwner = viewerId === entry.ownerId;
  const canDelete = isOwner || viewerId === entry.author.id;
  const pinIntent = pinning.formData?.get("intent");
  const pinned = pinIntent ? pinIntent === "pin" : entry.pinned;
  const error = [deleting, pinning].flatMap((f) => (f.state === "idle" ? Object.values(f.data?.result.error ?? {}) : [])).flat()[0];
  return (
    <article data-testid="wall-entry" data-pinned={entry.pinned} className="rounded-xl border border-border bg-card p-4 shadow-sm">
      <header className="flex items-center gap-3">
        <MemberAvatar member={entry.author} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 text-sm">
            <MemberName member={entry.author} />
            <RankBadges ranks={entry.author.ranks} />
          </div>
          <RelativeTime iso={entry.createdAt} className="text-xs text-muted-foreground" />
        </div>
        {entry.pinned ? (
          <Badge variant="secondary" className="gap-1">
            <Icon name="pin" className="size-3" /> Закреплено
          </Badge>
        ) : null}
      </header>
      {entry.deleted || (entry.hidden && entry.html === "") ? (
        <p className="mt-3 text-sm italic text-muted-foreground" data-testid="wall-entry-body">
          {entry.deleted ? "Удалено модератором" : "Скрыто до решения модератора"}
        </p>
      ) : (
        <div className="prose-post mt-3 break-words" data-testid="wall-entry-body" dangerouslySetInnerHTML={{ __html: entry.html }} />
      )}
      <footer className="mt-3 flex flex-wrap items-center gap-2">
        <LikeButton
          target="wall_post"
          targetId={entry.id}
          liked={entry.liked}
          count={entry.likeCount}
          disabled={viewerId === null || viewerId === entry.author.id}
        />
        {isOwner ? (
          <pinning.Form method="post" action={`/profile/${entry.ownerId}/wall`}>
            <EntryFields entryId={entry.id} intent={pinned ? "unpin" : "pin"} />
            <Button type="submit" variant="ghost" size="sm" disabled={pinning.state !== "idle"}>
              {pinned ? <Icon name="pin-off" /> : <Icon name="pin" />}
              {pinned ? "Открепить" : "Закрепить"}
            </Button>
          </pinning.Form>
        ) : null}
        {canDelete ? (
          <deleting.Form method="post" action={`/profile/${entry.ownerId}/wall`}>
            <EntryFields entryId={entry.id} intent="delete" />
            <Button type="submit" variant="ghost" size="sm" className="text-destructive hover:text-destructive">
              <Icon name="trash-2" /> Удалить
            </Button>
          </deleting.Form>
        ) : null}
        {moderator && !canDelete && !entry.deleted ? (
          <ModerationForm intent="delete" type="wall_post" id={entry.id} variant="ghost" className="inline-flex">
            <Icon name="shield-x" /> Удалить (модератор)
          </ModerationForm>
        ) : null}
        {moderator && entry.deleted ? (
          <ModerationForm intent="restore" type="wall_post" id={entry.id} variant="ghost" className="inline-flex">
            <Icon name="archive-restore" /> Восстановить
          </ModerationForm>
        ) : null}
        {!entry.deleted && !(entry.hidden && entry.html === "") && viewerId !== entry.author.id ? (
          <ReportButton type="wall_post" id={entry.id} authorId={entry.author.id} compact />
        ) : null}
        {error ? (
          <p role="alert" className="basis-full text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </footer>
    </article>
  );
}

function EntryFields({ entryId, intent }: { entryId: number; intent: "delete" | "pin" | "unpin" }) {
  return (
    <>
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="entryId" value={entryId} />
      <BackInput />
      <JsMarker />
    </>
  );
}
