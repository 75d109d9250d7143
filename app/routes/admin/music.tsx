/**
 * /admin/music (admins; issue 11): upload a track (MP3, OGG, M4A or FLAC up to 30 MB; title,
 * artist, duration and cover read from its tags, the title and artist may be typed instead),
 * the playlist with its order (up and down), plays, links to edit, and deletion. A visitor is
 * sent to sign in; a member who is not an admin gets 403. Every form works without JavaScript.
 */
import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useLocation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ArrowDown, ArrowUp, Pencil, Trash2 } from "lucide-react";
import type { Route } from "./+types/music";
import { messagesOf, resultFor } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { Cover } from "~/components/music/cover";
import { SettingsForm, SettingsSection } from "~/components/settings/settings-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { AdminMusicActionSchema, UploadTrackFormSchema } from "~/domain/music/schemas";
import { deleteTrack, listAdminTracks, moveTrack, uploadTrack } from "~/domain/music/tracks.server";
import { AUDIO_ACCEPT, formatDuration, formatMegabytes } from "~/domain/music/types";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { formatCount } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { getStorage } from "~/lib/storage/storage.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Музыка: управление");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => ({ tracks: await listAdminTracks(context.db, getStorage(context.config), user) }));
}

export async function action({ request, context }: Route.ActionArgs) {
  const storage = getStorage(context.config);
  return runFormAction(context, request, {
    schema: AdminMusicActionSchema,
    fieldFor: { audio_empty: "audio", audio_too_large: "audio", audio_unsupported_type: "audio" },
    async perform(actor, input) {
      switch (input.intent) {
        case "upload": {
          const track = await uploadTrack(context.db, storage, actor, {
            bytes: new Uint8Array(await input.audio.arrayBuffer()),
            fileName: input.audio.name,
            title: input.title,
            artist: input.artist,
          });
          return { toast: { title: "Трек загружен", description: `«${track.title}», ${formatDuration(track.durationMs)}` } };
        }
        case "move":
          await moveTrack(context.db, actor, input.trackId, input.direction);
          return { toast: { title: "Порядок изменён" } };
        case "delete":
          await deleteTrack(context.db, storage, actor, input.trackId);
          return { toast: { title: "Трек удалён" } };
      }
    },
  });
}

export default function AdminMusicPage({ loaderData, actionData }: Route.ComponentProps) {
  const { tracks } = loaderData;
  const location = useLocation();
  const listErrors = [...messagesOf(resultFor(actionData, "move")), ...messagesOf(resultFor(actionData, "delete"))];
  return (
    <div className="grid gap-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="font-heading text-3xl font-extrabold">Музыка: управление</h1>
        <Link to="/music" className="text-sm font-medium text-primary hover:underline">
          Открыть плейлист →
        </Link>
      </div>
      <UploadForm key={location.key} lastResult={resultFor(actionData, "upload")} />
      <section className="grid gap-3" aria-labelledby="tracks-title">
        <h2 id="tracks-title" className="font-heading text-xl font-bold">
          Треки ({tracks.length})
        </h2>
        <FormErrors errors={listErrors} />
        {tracks.length === 0 ? (
          <p className="text-muted-foreground">Треков пока нет: загрузите первый.</p>
        ) : (
          <ol className="grid gap-2" data-testid="admin-tracks">
            {tracks.map((track, index) => (
              <li key={track.id} className="flex flex-wrap items-center gap-3 rounded-xl border border-border bg-card p-3" data-testid="admin-track">
                <Cover track={track} className="size-12" />
                <div className="min-w-[10rem] flex-1">
                  <p className="truncate font-semibold">{track.title}</p>
                  <p className="truncate text-sm text-muted-foreground">
                    {track.artist || "Исполнитель не указан"} · {formatDuration(track.durationMs)} · {formatMegabytes(track.audioSize)} ·{" "}
                    {formatCount(track.playCount)} прослуш.
                  </p>
                </div>
                <div className="flex items-center gap-1">
                  <TrackButton intent="move" trackId={track.id} direction="up" label={`Выше: ${track.title}`} disabled={index === 0}>
                    <ArrowUp />
                  </TrackButton>
                  <TrackButton intent="move" trackId={track.id} direction="down" label={`Ниже: ${track.title}`} disabled={index === tracks.length - 1}>
                    <ArrowDown />
                  </TrackButton>
                  <Button asChild variant="ghost" size="icon" aria-label={`Изменить: ${track.title}`}>
                    <Link to={`/admin/music/${track.id}`}>
                      <Pencil />
                    </Link>
                  </Button>
                  <TrackButton intent="delete" trackId={track.id} label={`Удалить: ${track.title}`}>
                    <Trash2 className="text-destructive" />
                  </TrackButton>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function UploadForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "track-upload",
    lastResult,
    constraint: getZodConstraint(UploadTrackFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UploadTrackFormSchema }),
  });
  return (
    <SettingsSection
      id="upload"
      title="Загрузить трек"
      description="MP3, OGG, M4A или FLAC до 30 МБ. Название, исполнитель, длительность и обложка берутся из тегов файла; название и исполнителя можно указать здесь."
    >
      <SettingsForm form={form} intent="upload" submitLabel="Загрузить" multipart>
        <Field label="Аудиофайл" id={fields.audio.id} errors={fields.audio.errors}>
          <Input name={fields.audio.name} type="file" accept={AUDIO_ACCEPT} required />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Название" id={fields.title.id} errors={fields.title.errors} description="Необязательно: иначе из тегов">
            <Input {...getInputProps(fields.title, { type: "text" })} />
          </Field>
          <Field label="Исполнитель" id={fields.artist.id} errors={fields.artist.errors} description="Необязательно: иначе из тегов">
            <Input {...getInputProps(fields.artist, { type: "text" })} />
          </Field>
        </div>
      </SettingsForm>
    </SettingsSection>
  );
}

function TrackButton({
  intent,
  trackId,
  direction,
  label,
  disabled,
  children,
}: {
  intent: "move" | "delete";
  trackId: number;
  direction?: "up" | "down";
  label: string;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Form method="post">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="trackId" value={trackId} />
      {direction ? <input type="hidden" name="direction" value={direction} /> : null}
      <Button type="submit" variant="ghost" size="icon" aria-label={label} title={label} disabled={disabled}>
        {children}
      </Button>
    </Form>
  );
}
