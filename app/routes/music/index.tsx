/**
 * /music (public; issue 11, docs/product/pages.md): the playlist. With JavaScript each track's
 * button plays it in the root layout's player (it keeps playing across pages); without it every
 * track has the browser's own audio controls, served with range requests so seeking works.
 */
import { Link } from "~/components/ui/link";
import { useHydrated } from "remix-utils/use-hydrated";
import { BarChart3, Pause, Play, Settings } from "lucide-react";
import type { Route } from "./+types/index";
import { Cover } from "~/components/music/cover";
import { useMusicPlayer } from "~/components/music/player";
import { Button } from "~/components/ui/button";
import { listTracks } from "~/domain/music/tracks.server";
import { formatDuration, type TrackDto } from "~/domain/music/types";
import { isAdminRole } from "~/domain/users/roles-admin";
import { getOptionalUser } from "~/lib/auth.server";
import { formatCount, plural } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { getStorage } from "~/lib/storage/storage.server";
import { cn } from "~/lib/utils";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Музыка", "Плейлист сообщества: слушайте, пока листаете форум.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const [tracks, user] = await Promise.all([listTracks(context.db, getStorage(context.config)), getOptionalUser(context, request)]);
  return { tracks, isAdmin: isAdminRole(user?.role) };
}

export default function MusicPage({ loaderData }: Route.ComponentProps) {
  const { tracks, isAdmin } = loaderData;
  const player = useMusicPlayer();
  const hydrated = useHydrated();
  const totalMs = tracks.reduce((sum, track) => sum + track.durationMs, 0);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Музыка</h1>
          <p className="mt-1 text-muted-foreground">
            {tracks.length > 0
              ? `${tracks.length} ${plural(tracks.length, ["трек", "трека", "треков"])}, ${formatDuration(totalMs)}. Музыка не прерывается, пока вы переходите по сайту.`
              : "Плейлист пока пуст."}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {hydrated && player && tracks.length > 0 ? (
            <Button onClick={() => player.playQueue(tracks, 0)} data-testid="music-play-all">
              <Play aria-hidden /> Слушать всё
            </Button>
          ) : null}
          {isAdmin ? (
            <Button asChild variant="outline">
              <Link to="/admin/music">
                <Settings aria-hidden /> Управление треками
              </Link>
            </Button>
          ) : null}
        </div>
      </div>
      {tracks.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-10 text-center text-muted-foreground">
          Администраторы ещё не загрузили ни одного трека.
        </p>
      ) : (
        <ol className="grid gap-2" data-testid="music-tracks">
          {tracks.map((track, index) => (
            <TrackRow key={track.id} track={track} number={index + 1} onPlay={hydrated && player ? () => player.playQueue(tracks, index) : null} />
          ))}
        </ol>
      )}
    </div>
  );
}

function TrackRow({ track, number, onPlay }: { track: TrackDto; number: number; onPlay: (() => void) | null }) {
  const player = useMusicPlayer();
  const isCurrent = player?.current?.id === track.id;
  const isPlaying = isCurrent && player?.playing;
  return (
    <li
      className={cn(
        "grid grid-cols-[auto_1fr] items-center gap-4 rounded-2xl border p-3 shadow-sm sm:grid-cols-[auto_1fr_auto]",
        isCurrent ? "border-primary/60 bg-primary/5" : "border-border bg-card",
      )}
      data-testid="music-track"
      aria-current={isCurrent ? "true" : undefined}
    >
      <div className="relative">
        <Cover track={track} className="size-16" />
        {onPlay ? (
          <button
            type="button"
            onClick={onPlay}
            aria-label={isPlaying ? `Пауза: ${track.title}` : `Слушать: ${track.title}`}
            className="absolute inset-0 grid place-items-center rounded-md bg-black/35 text-white opacity-90 transition hover:bg-black/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            {isPlaying ? <Pause className="size-7" /> : <Play className="size-7 translate-x-0.5" />}
          </button>
        ) : null}
      </div>
      <div className="min-w-0">
        <p className="truncate font-semibold">
          <span className="mr-2 text-sm text-muted-foreground tabular-nums">{number}.</span>
          {track.title}
        </p>
        <p className="truncate text-sm text-muted-foreground">{track.artist || "Неизвестный исполнитель"}</p>
        {onPlay ? null : (
          // Without JavaScript: the browser's own player (seeking works through range requests).
          <audio controls preload="none" src={track.audioUrl} className="mt-2 w-full max-w-md">
            <a href={track.audioUrl}>Скачать трек</a>
          </audio>
        )}
      </div>
      <div className="col-span-2 flex items-center gap-4 text-sm text-muted-foreground sm:col-span-1 sm:justify-end">
        <span className="flex items-center gap-1" title="Прослушивания">
          <BarChart3 aria-hidden className="size-4" />
          <span data-testid="music-play-count">{formatCount(track.playCount)}</span>
          <span className="sr-only"> {plural(track.playCount, ["прослушивание", "прослушивания", "прослушиваний"])}</span>
        </span>
        <span className="tabular-nums">{formatDuration(track.durationMs)}</span>
      </div>
    </li>
  );
}
