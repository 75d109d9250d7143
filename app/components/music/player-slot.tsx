/**
 * The root layout's place for the music player (decision 0046). The slot itself is a few lines:
 * the player's code (its <audio>, Media Session, play counting; ./player.tsx) comes with the pages
 * that play music, and the first of them mounts it here with `mount`. Mounted in the root, it
 * lives as long as the document, so a track keeps playing across client-side navigation
 * (docs/product/pages.md#music).
 */
import { createContext, useCallback, useContext, useMemo, useState, type ComponentType } from "react";
import type { TrackDto } from "~/domain/music/types";

/** What the player shows and does (docs/product/pages.md#music); times in seconds. */
export interface MusicPlayer {
  queue: TrackDto[];
  current: TrackDto | null;
  playing: boolean;
  /** The current track's audio could not be loaded or decoded. */
  failed: boolean;
  /** Seconds. */
  position: number;
  /** Seconds (the track's own figure until the audio's metadata arrives). */
  duration: number;
  volume: number;
  /** Plays `tracks` from `index` (the same track again toggles play and pause). */
  playQueue(tracks: TrackDto[], index: number): void;
  toggle(): void;
  next(): void;
  previous(): void;
  seek(seconds: number): void;
  setVolume(volume: number): void;
  close(): void;
}

/** The player's component: it renders the audio and the bar and reports its state with `onChange`. */
export type MusicPlayerEngine = ComponentType<{ onChange(player: MusicPlayer): void }>;

interface Slot {
  /** The mounted player's state; null until a page has mounted it. */
  player: MusicPlayer | null;
  /** Mounts `engine` for the rest of the document's life (again: nothing happens). */
  mount(engine: MusicPlayerEngine): void;
}

const SlotContext = createContext<Slot | null>(null);

/** The slot's context: null outside the root layout. */
export function usePlayerSlot(): Slot | null {
  return useContext(SlotContext);
}

/** Wraps the pages in the root layout; renders the player once a page has mounted it. */
export function MusicPlayerSlot({ children }: { children: React.ReactNode }) {
  const [Engine, setEngine] = useState<MusicPlayerEngine | null>(null);
  const [player, setPlayer] = useState<MusicPlayer | null>(null);
  const mount = useCallback((engine: MusicPlayerEngine) => setEngine(() => engine), []);
  const slot = useMemo(() => ({ player, mount }), [player, mount]);
  return (
    <SlotContext.Provider value={slot}>
      {children}
      {Engine ? <Engine onChange={setPlayer} /> : null}
    </SlotContext.Provider>
  );
}
