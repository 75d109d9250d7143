/**
 * The music player of the root layout (issue 11; docs/product/pages.md "/music"): one <audio>
 * element that lives as long as the document, so a track keeps playing across client-side
 * navigation. Its code comes with /music, which mounts it in the root layout's slot
 * (./player-slot.tsx, decision 0046); other pages' first scripts carry only the slot. /music
 * hands it a queue; the bar at the bottom of every page plays and pauses, goes to the previous
 * and next track, seeks, and sets the volume (0.5 by default, remembered in localStorage). The
 * Media Session API gets the track's title, artist and cover and the hardware keys' handlers. A
 * play is counted once 10 seconds have played (or the whole track when shorter), by
 * POST /api/music/{id}/plays.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import type { TrackDto } from "~/domain/music/types";
import { optimizedImageUrl } from "~/lib/images/widths";
import { usePlayerSlot, type MusicPlayer } from "./player-slot";
import { readVolume, saveVolume, DEFAULT_VOLUME } from "./volume";

/** Seconds of listening after which a play counts. */
const PLAY_COUNT_AFTER_S = 10;
/** «Previous» restarts the track instead when it has played longer than this, seconds. */
const RESTART_AFTER_S = 3;
const SEEK_STEP_S = 10;

/** The bar's code is asked for when a track first plays: most pages never show it (decision 0040). */
const PlayerBar = lazy(() => import("./player-bar"));

/**
 * The player, for /music's buttons: the first call mounts it in the root layout's slot
 * (./player-slot.tsx). Null until it has mounted (an effect after the first render), and outside
 * the root layout.
 */
export function useMusicPlayer(): MusicPlayer | null {
  const slot = usePlayerSlot();
  const mount = slot?.mount;
  useEffect(() => mount?.(MusicPlayerEngine), [mount]);
  return slot?.player ?? null;
}

/** The player itself (see the module comment): the <audio>, the bar once a track is loaded; its state goes to `onChange`. */
function MusicPlayerEngine({ onChange }: { onChange(player: MusicPlayer): void }) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const csrf = useAuthenticityToken();
  const [queue, setQueue] = useState<TrackDto[]>([]);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [mediaDuration, setMediaDuration] = useState(0);
  const [volume, setVolumeState] = useState(DEFAULT_VOLUME);
  const [failed, setFailed] = useState(false);
  const listened = useRef({ trackId: 0, seconds: 0, lastTime: 0, counted: false });
  const current = queue[index] ?? null;

  useEffect(() => {
    const remembered = readVolume();
    setVolumeState(remembered);
    if (audioRef.current) audioRef.current.volume = remembered;
  }, []);

  const start = useCallback((audio: HTMLAudioElement) => {
    // A newer src or pause() interrupting this play() is no failure, and an autoplay refusal
    // leaves it paused; a file that cannot play raises the element's error event (shown in the bar).
    audio.play().catch(() => undefined);
  }, []);

  // A new current track: load and play it.
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || !current) return;
    if (audio.dataset.trackId !== String(current.id)) {
      audio.dataset.trackId = String(current.id);
      audio.src = current.audioUrl;
      setPosition(0);
      setMediaDuration(0);
      setFailed(false);
      listened.current = { trackId: current.id, seconds: 0, lastTime: 0, counted: false };
      start(audio);
    }
  }, [current, start]);

  const playQueue = useCallback(
    (tracks: TrackDto[], at: number) => {
      const audio = audioRef.current;
      const track = tracks[at];
      if (!audio || !track) return;
      if (audio.dataset.trackId === String(track.id)) {
        if (audio.paused) start(audio);
        else audio.pause();
      }
      setQueue(tracks);
      setIndex(at);
    },
    [start],
  );

  const toggle = useCallback(() => {
    const audio = audioRef.current;
    if (!audio || !audio.src) return;
    if (audio.paused) start(audio);
    else audio.pause();
  }, [start]);

  const next = useCallback(() => {
    if (queue.length === 0) return;
    setIndex((i) => (i + 1) % queue.length);
  }, [queue.length]);

  const previous = useCallback(() => {
    const audio = audioRef.current;
    if (!audio || queue.length === 0) return;
    if (audio.currentTime > RESTART_AFTER_S || queue.length === 1) {
      audio.currentTime = 0;
      return;
    }
    setIndex((i) => (i - 1 + queue.length) % queue.length);
  }, [queue.length]);

  const seek = useCallback((seconds: number) => {
    const audio = audioRef.current;
    if (!audio || !Number.isFinite(seconds)) return;
    audio.currentTime = Math.max(0, seconds);
    setPosition(audio.currentTime);
  }, []);

  const setVolume = useCallback((value: number) => {
    const clamped = Math.min(1, Math.max(0, value));
    setVolumeState(clamped);
    if (audioRef.current) audioRef.current.volume = clamped;
    saveVolume(clamped);
  }, []);

  const close = useCallback(() => {
    const audio = audioRef.current;
    if (audio) {
      audio.pause();
      audio.removeAttribute("src");
      delete audio.dataset.trackId;
      audio.load();
    }
    setQueue([]);
    setIndex(0);
    setPlaying(false);
  }, []);

  const duration = mediaDuration || (current ? current.durationMs / 1000 : 0);

  const countPlay = useCallback(
    (audio: HTMLAudioElement) => {
      const state = listened.current;
      if (!current || state.trackId !== current.id) return;
      const now = audio.currentTime;
      const step = now - state.lastTime;
      // Only time actually played counts: a seek jumps further than a timeupdate interval.
      if (step > 0 && step < 2) state.seconds += step;
      state.lastTime = now;
      const needed = Math.min(PLAY_COUNT_AFTER_S, Math.max(0.5, (audio.duration || current.durationMs / 1000) - 0.5));
      if (!state.counted && state.seconds >= needed) {
        state.counted = true;
        void fetch(`/api/music/${current.id}/plays`, { method: "POST", headers: { "X-CSRF-Token": csrf } }).catch(() => {
          // Counting is best effort: a lost count never interrupts the music.
        });
      }
    },
    [current, csrf],
  );

  // Media Session: what the system's media controls and hardware keys show and do.
  useEffect(() => {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator) || !current) return;
    const session = navigator.mediaSession;
    const cover = current.coverUrl;
    session.metadata = new MediaMetadata({
      title: current.title,
      artist: current.artist,
      album: "Сходка",
      // The endpoint never enlarges: 640 gives the stored 512 px cover.
      artwork: cover
        ? [
            { src: optimizedImageUrl(cover, { width: 320 }), sizes: "320x320" },
            { src: optimizedImageUrl(cover, { width: 640 }), sizes: "512x512" },
          ]
        : [],
    });
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", () => audioRef.current && start(audioRef.current)],
      ["pause", () => audioRef.current?.pause()],
      ["previoustrack", previous],
      ["nexttrack", next],
      ["seekto", (details) => details.seekTime !== undefined && seek(details.seekTime)],
      ["seekbackward", (details) => audioRef.current && seek(audioRef.current.currentTime - (details.seekOffset ?? SEEK_STEP_S))],
      ["seekforward", (details) => audioRef.current && seek(audioRef.current.currentTime + (details.seekOffset ?? SEEK_STEP_S))],
      ["stop", close],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // This browser does not know the action.
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // As above.
        }
      }
    };
  }, [current, next, previous, seek, close, start]);

  useEffect(() => {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator)) return;
    navigator.mediaSession.playbackState = current ? (playing ? "playing" : "paused") : "none";
    if (!current) navigator.mediaSession.metadata = null;
  }, [playing, current]);

  const value = useMemo<MusicPlayer>(
    () => ({ queue, current, playing, failed, position, duration, volume, playQueue, toggle, next, previous, seek, setVolume, close }),
    [queue, current, playing, failed, position, duration, volume, playQueue, toggle, next, previous, seek, setVolume, close],
  );

  useEffect(() => onChange(value), [onChange, value]);

  return (
    <>
      <audio
        ref={audioRef}
        preload="metadata"
        data-testid="music-audio"
        onPlay={() => setPlaying(true)}
        onError={() => {
          if (audioRef.current?.getAttribute("src")) setFailed(true);
        }}
        onPause={() => setPlaying(false)}
        onLoadedMetadata={(event) => {
          const audio = event.currentTarget;
          if (Number.isFinite(audio.duration)) setMediaDuration(audio.duration);
        }}
        onTimeUpdate={(event) => {
          const audio = event.currentTarget;
          setPosition(audio.currentTime);
          countPlay(audio);
          if ("mediaSession" in navigator && Number.isFinite(audio.duration) && audio.duration > 0) {
            try {
              navigator.mediaSession.setPositionState({
                duration: audio.duration,
                position: Math.min(audio.currentTime, audio.duration),
                playbackRate: audio.playbackRate,
              });
            } catch {
              // Position state is optional.
            }
          }
        }}
        onEnded={() => {
          if (index + 1 < queue.length) setIndex(index + 1);
          else setPlaying(false);
        }}
        hidden
      />
      {current ? (
        <Suspense fallback={null}>
          <PlayerBar player={value} />
        </Suspense>
      ) : null}
    </>
  );
}
