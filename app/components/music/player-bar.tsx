/** The music player's bar at the foot of the page, shown once a track is loaded (docs/product/pages.md#music). */
import { Pause, Play, SkipBack, SkipForward, Volume1, Volume2, VolumeX, X } from "lucide-react";
import { Link } from "~/components/ui/link";
import { formatDuration } from "~/domain/music/types";
import { Cover } from "./cover";
import type { MusicPlayer } from "./player-slot";

export default function PlayerBar({ player }: { player: MusicPlayer }) {
  const { current, playing, position, duration, volume } = player;
  if (!current) return null;
  const VolumeIcon = volume === 0 ? VolumeX : volume < 0.5 ? Volume1 : Volume2;
  return (
    <>
      {/* Room at the end of the page, so the bar never covers the footer. */}
      <div aria-hidden className="h-28 sm:h-20" />
      {/* On a phone the bar sits on top of the bottom navigation (layout/bottom-nav.tsx), never over it. */}
      <section
        aria-label="Плеер"
        data-testid="music-player"
        className="fixed inset-x-0 bottom-0 z-50 max-md:bottom-(--bottom-nav-height) border-t border-border bg-card/95 shadow-[0_-4px_16px_rgba(0,0,0,0.08)] backdrop-blur"
      >
        <div className="mx-auto grid max-w-6xl grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1 px-4 py-2 sm:grid-cols-[minmax(0,16rem)_1fr_auto] sm:gap-x-6">
          <div className="flex min-w-0 items-center gap-3">
            <Cover track={current} className="size-11" />
            <div className="min-w-0">
              <Link to="/music" className="block truncate text-sm font-semibold hover:underline" data-testid="player-title">
                {current.title}
              </Link>
              {player.failed ? (
                <p role="alert" className="truncate text-xs text-destructive">
                  Не удалось загрузить трек
                </p>
              ) : (
                <p className="truncate text-xs text-muted-foreground">{current.artist || "Неизвестный исполнитель"}</p>
              )}
            </div>
          </div>
          <div className="col-span-2 row-start-2 flex items-center gap-2 sm:col-span-1 sm:col-start-2 sm:row-start-1">
            <span className="w-10 text-right text-xs tabular-nums text-muted-foreground" data-testid="player-position">
              {formatDuration(position * 1000)}
            </span>
            <input
              type="range"
              aria-label="Позиция в треке"
              min={0}
              max={Math.max(duration, 0.1)}
              step={0.1}
              value={Math.min(position, duration)}
              onChange={(event) => player.seek(Number(event.currentTarget.value))}
              className="h-1.5 flex-1 cursor-pointer accent-primary"
              data-testid="player-seek"
            />
            <span className="w-10 text-xs tabular-nums text-muted-foreground">{formatDuration(duration * 1000)}</span>
          </div>
          <div className="flex items-center gap-1">
            <IconButton label="Предыдущий трек" onClick={player.previous}>
              <SkipBack className="size-4" />
            </IconButton>
            <button
              type="button"
              onClick={player.toggle}
              aria-label={playing ? "Пауза" : "Играть"}
              className="grid size-10 place-items-center rounded-full bg-primary text-primary-foreground shadow-sm hover:bg-primary/90 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              data-testid="player-toggle"
            >
              {playing ? <Pause className="size-5" /> : <Play className="size-5 translate-x-px" />}
            </button>
            <IconButton label="Следующий трек" onClick={player.next}>
              <SkipForward className="size-4" />
            </IconButton>
            <div className="ml-2 hidden items-center gap-2 md:flex">
              <IconButton label={volume === 0 ? "Включить звук" : "Выключить звук"} onClick={() => player.setVolume(volume === 0 ? 0.5 : 0)}>
                <VolumeIcon className="size-4" />
              </IconButton>
              <input
                type="range"
                aria-label="Громкость"
                min={0}
                max={1}
                step={0.05}
                value={volume}
                onChange={(event) => player.setVolume(Number(event.currentTarget.value))}
                className="h-1.5 w-24 cursor-pointer accent-primary"
                data-testid="player-volume"
              />
            </div>
            <IconButton label="Закрыть плеер" onClick={player.close}>
              <X className="size-4" />
            </IconButton>
          </div>
        </div>
      </section>
    </>
  );
}

function IconButton({ label, onClick, children }: { label: string; onClick: () => void; children: React.ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      className="grid size-9 place-items-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {children}
    </button>
  );
}
