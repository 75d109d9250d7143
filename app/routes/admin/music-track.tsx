/**
 * /admin/music/{id} (admins; issue 11): edit a track's title, artist and cover (a new picture up
 * to 10 MB, or none). The audio itself never changes: a different recording is a new track.
 */
import { getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/music-track";
import { resultFor } from "~/components/forms/action-data";
import { Cover } from "~/components/music/cover";
import { SettingsForm, SettingsSection } from "~/components/settings/settings-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { EditTrackFormSchema } from "~/domain/music/schemas";
import { getAdminTrack, updateTrack } from "~/domain/music/tracks.server";
import { formatDuration, formatMegabytes } from "~/domain/music/types";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { getStorage } from "~/lib/storage/storage.server";

export const meta: Route.MetaFunction = ({ matches, data }) => pageMeta(matches, data ? `Трек «${data.track.title}»` : "Трек");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => ({ track: await getAdminTrack(context.db, getStorage(context.config), user, Number(params.id)) }));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: EditTrackFormSchema,
    async perform(actor, input) {
      const track = await updateTrack(context.db, getStorage(context.config), actor, Number(params.id), {
        title: input.title,
        artist: input.artist ?? "",
        cover: input.cover ? new Uint8Array(await input.cover.arrayBuffer()) : undefined,
        removeCover: input.removeCover,
      });
      return { toast: { title: "Трек сохранён", description: `«${track.title}»` }, redirectTo: "/admin/music" };
    },
  });
}

export default function AdminTrackPage({ loaderData, actionData }: Route.ComponentProps) {
  const { track } = loaderData;
  const location = useLocation();
  const [form, fields] = useForm({
    id: "track-edit",
    lastResult: resultFor(actionData, "edit"),
    defaultValue: { title: track.title, artist: track.artist },
    constraint: getZodConstraint(EditTrackFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EditTrackFormSchema }),
  });
  return (
    <div className="grid max-w-2xl gap-6" key={location.key}>
      <Link to="/admin/music" className="text-sm font-medium text-primary hover:underline">
        ← Все треки
      </Link>
      <div className="flex items-center gap-4">
        <Cover track={track} className="size-24" />
        <div>
          <h1 className="font-heading text-2xl font-extrabold">{track.title}</h1>
          <p className="text-muted-foreground">
            {formatDuration(track.durationMs)} · {formatMegabytes(track.audioSize)} · {track.audioType}
          </p>
        </div>
      </div>
      <SettingsSection id="edit" title="Изменить трек">
        <SettingsForm form={form} intent="edit" submitLabel="Сохранить" multipart>
          <Field label="Название" id={fields.title.id} errors={fields.title.errors}>
            <Input {...getInputProps(fields.title, { type: "text" })} />
          </Field>
          <Field label="Исполнитель" id={fields.artist.id} errors={fields.artist.errors}>
            <Input {...getInputProps(fields.artist, { type: "text" })} />
          </Field>
          <Field
            label="Новая обложка"
            id={fields.cover.id}
            errors={fields.cover.errors}
            description="JPEG, PNG, WebP, GIF или AVIF до 10 МБ, обрезается до квадрата"
          >
            <Input name={fields.cover.name} type="file" accept="image/jpeg,image/png,image/webp,image/gif,image/avif" />
          </Field>
          {track.coverUrl ? (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name={fields.removeCover.name} className="size-4 accent-primary" />
              Убрать обложку
            </label>
          ) : null}
        </SettingsForm>
      </SettingsSection>
    </div>
  );
}
