/**
 * Hints: the tooltips of controls that are whole without them — a header icon, a name in the
 * online list (docs/product/interface.md#tooltips-and-hover-cards, docs/decisions/0041-hints-are-attributes-one-host-reads.md).
 *
 * A control asks for one with `{...hint("Выйти")}`: a `data-hint` attribute, nothing else, so the
 * server's element is the one that stays — a press or a keyboard focus landing on it while the page
 * hydrates is never lost to a swapped copy. `HintHost`, mounted once in the root, listens on the
 * document: hovering a hinted control with a mouse or pen for 700 ms, or focusing it from the
 * keyboard, shows its hint above it; within 300 ms of one closing the next opens at once. Leaving
 * it, a press, Escape, scrolling, a navigation or the control leaving the page closes it. The bubble's placement (floating-ui)
 * is a chunk asked for once the page has hydrated (decision 0040).
 */
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useLocation } from "react-router";
import { listenOnDocument } from "~/lib/document-listeners";

/** docs/product/interface.md#tooltips-and-hover-cards: hovering this long opens a hint (ms). */
export const HINT_OPEN_DELAY_MS = 700;
/** docs/product/interface.md#tooltips-and-hover-cards: within this long of one closing, the next opens at once (ms). */
export const HINT_SKIP_DELAY_MS = 300;

/** The attribute that carries a control's hint, in Russian. */
const HINT_ATTRIBUTE = "data-hint";

/** The props that give a control (a link or a button) the hint `label`, in Russian. */
export function hint(label: string): { "data-hint": string } {
  return { [HINT_ATTRIBUTE]: label } as { "data-hint": string };
}

const loadHintBubble = () => import("~/components/ui/hint-bubble");
const HintBubble = lazy(loadHintBubble);

/** The hinted control around `target`, or null. */
function hintedControlOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>(`[${HINT_ATTRIBUTE}]`) : null;
}

/** The page's one hint (see the module comment); renders nothing while none is open. */
export function HintHost() {
  const [open, setOpen] = useState<HTMLElement | null>(null);
  const bubbleId = useId();
  const openTimer = useRef<number | undefined>(undefined);
  // When the last hint closed (ms since the epoch), for the 300 ms in which the next opens at once.
  const closedAt = useRef(0);
  const shown = useRef<HTMLElement | null>(null);
  // The control whose hint waits its 700 ms.
  const pending = useRef<HTMLElement | null>(null);
  const location = useLocation();
  useEffect(() => {
    void loadHintBubble();
  }, []);

  const show = useCallback((control: HTMLElement | null) => {
    window.clearTimeout(openTimer.current);
    pending.current = null;
    // A control gone from the page (its timer ran out after it was removed) has nothing to describe.
    if (control && !control.isConnected) control = null;
    if (shown.current === control) return;
    if (shown.current && !control) closedAt.current = Date.now();
    shown.current = control;
    setOpen(control);
  }, []);

  // The open control is described by its hint while it shows (as a tooltip's trigger is), and the
  // hint closes when the control leaves the page (a list refreshed under it, «Выйти» pressed).
  useEffect(() => {
    if (!open) return;
    const before = open.getAttribute("aria-describedby");
    open.setAttribute("aria-describedby", before ? `${before} ${bubbleId}` : bubbleId);
    const removed = new MutationObserver(() => {
      if (!open.isConnected) show(null);
    });
    removed.observe(document.body, { childList: true, subtree: true });
    return () => {
      removed.disconnect();
      if (before === null) open.removeAttribute("aria-describedby");
      else open.setAttribute("aria-describedby", before);
    };
  }, [open, bubbleId, show]);

  useEffect(() => {
    const showLater = (control: HTMLElement) => {
      window.clearTimeout(openTimer.current);
      const soon = shown.current !== null || Date.now() - closedAt.current < HINT_SKIP_DELAY_MS;
      if (soon) return show(control);
      pending.current = control;
      openTimer.current = window.setTimeout(() => show(control), HINT_OPEN_DELAY_MS);
    };
    const close = () => show(null);
    const onPointerOver = (event: PointerEvent) => {
      if (event.pointerType === "touch") return;
      const control = hintedControlOf(event.target);
      if (control && control !== hintedControlOf(event.relatedTarget)) showLater(control);
    };
    const onPointerOut = (event: PointerEvent) => {
      const control = hintedControlOf(event.target);
      if (control && control !== hintedControlOf(event.relatedTarget)) close();
    };
    const onFocusIn = (event: FocusEvent) => {
      const control = hintedControlOf(event.target);
      // From the keyboard only: a pressed control's hint would cover what the press opens.
      if (control && control.matches(":focus-visible")) show(control);
    };
    const onFocusOut = (event: FocusEvent) => {
      const control = hintedControlOf(event.target);
      if (control && control === shown.current) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    // Scrolling what holds the control moves it from under its hint; other scrolling leaves it.
    const onScroll = (event: Event) => {
      const scrolled = event.target instanceof Document ? event.target.documentElement : event.target;
      const control = shown.current ?? pending.current;
      if (control && scrolled instanceof Node && scrolled.contains(control)) close();
    };
    const unlisten = listenOnDocument(
      {
        pointerover: onPointerOver,
        pointerout: onPointerOut,
        focusin: onFocusIn,
        focusout: onFocusOut,
        keydown: onKeyDown,
        pointerdown: close,
        scroll: onScroll,
      },
      { capture: true, passive: true },
    );
    return () => {
      unlisten();
      window.clearTimeout(openTimer.current);
    };
  }, [show]);

  // A navigation (to another page or the same one again) closes it: the control may be gone.
  useEffect(() => show(null), [location.key, show]);

  const label = open?.getAttribute(HINT_ATTRIBUTE);
  if (!open || !label) return null;
  return createPortal(
    <Suspense fallback={null}>
      <HintBubble id={bubbleId} control={open} label={label} />
    </Suspense>,
    document.body,
  );
}
