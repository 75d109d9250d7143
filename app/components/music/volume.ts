/**
 * The player's volume, remembered in this browser (issue 11: "volume 0.5 by default and
 * remembered locally"). Pure apart from localStorage, which may be missing or refuse.
 */

/** localStorage key of the remembered volume. */
export const VOLUME_KEY = "musicVolume";
/** Volume before the listener chose one (docs/product/limits.md sets 0.5 for the chat sound too). */
export const DEFAULT_VOLUME = 0.5;

/** A stored value as a volume 0…1, or the default for anything else. */
export function parseVolume(stored: string | null | undefined): number {
  if (stored === null || stored === undefined || stored.trim() === "") return DEFAULT_VOLUME;
  const value = Number(stored);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : DEFAULT_VOLUME;
}

export function readVolume(): number {
  try {
    return parseVolume(window.localStorage.getItem(VOLUME_KEY));
  } catch {
    return DEFAULT_VOLUME;
  }
}

export function saveVolume(volume: number): void {
  try {
    window.localStorage.setItem(VOLUME_KEY, String(Math.round(volume * 100) / 100));
  } catch {
    // Private mode or storage disabled: the volume lasts for this page only.
  }
}
