import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names (clsx: strings, conditionals, arrays), without merging them: the shared
 * components' bases are classes of the components layer (app/styles/components.css), which a
 * caller's utilities override by the layer, and no element carries two utilities that set the same
 * thing (the journeys check every page they end on: tests/setup/class-conflicts.ts). Decision 0045.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}

/**
 * True for a plain left click: no modifier key. A click with Ctrl, ⌘, Shift or Alt, or another
 * button, is meant for a new tab or window, so a link's own handler lets the browser follow it.
 */
export function isPlainClick(event: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
