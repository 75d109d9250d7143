/**
 * The page's one trust card (docs/product/interface.md#trust-card, docs/decisions/0038-one-trust-card-per-page.md).
 * Every member's avatar and name on a page is a plain `.trust-trigger` span; this host, mounted
 * once in the root, listens on the document: hovering a trigger with a mouse or pen for 700 ms, or
 * focusing the link in it, opens the card beside it; leaving the trigger and the card, or moving
 * the focus away, closes it 300 ms later; Escape or a press elsewhere closes it at once. Touch does
 * not open it: a tap follows the link. Figures are asked from GET /api/profiles/{id}/trust-card
 * the first time a member's card opens on the page and kept until the next navigation.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useLocation } from "react-router";
import { listenOnDocument } from "~/lib/document-listeners";
import { inNextTask } from "~/components/ui/after-hydration";
import { HOVER_CARD_CLOSE_DELAY_MS, HOVER_CARD_OPEN_DELAY_MS } from "~/components/ui/hover-card";
import { fetchTrustCard, type MemberRef } from "~/components/users/trust-card";
import { trustTriggerOf } from "~/components/users/trust-triggers";
import type { TrustCardDto } from "~/domain/users/trust-card.server";

/**
 * The card's face and box and its placement (floating-ui, about 7 KB gzip; the face 2 KB): asked for
 * once the page has hydrated, so it is there before any card opens, and out of the page's first
 * scripts (decision 0040).
 */
const loadFloatingCard = () => import("~/components/users/floating-card");
const FloatingCard = lazy(loadFloatingCard);

/** What the open card shows and where: the hovered trigger and its member. */
interface OpenCard {
  trigger: HTMLElement;
  member: MemberRef;
}

/** A member's figures as asked this page: the card, or that the answer was not one. */
type Loaded = { card: TrustCardDto; failed: false } | { card: null; failed: true };

export function TrustCardHost() {
  const [open, setOpen] = useState<OpenCard | null>(null);
  const [loaded, setLoaded] = useState<ReadonlyMap<number, Loaded>>(new Map());
  const requests = useRef(new Map<number, AbortController>());
  const openTimer = useRef<number | undefined>(undefined);
  const closeTimer = useRef<number | undefined>(undefined);
  const cardElement = useRef<HTMLDivElement | null>(null);
  // The listeners read the open card here: entering another trigger must not keep this one open.
  const shown = useRef<OpenCard | null>(null);
  useEffect(() => {
    shown.current = open;
  }, [open]);
  const { pathname } = useLocation();
  useEffect(() => inNextTask(() => void loadFloatingCard()), []);

  const cancelOpen = useCallback(() => window.clearTimeout(openTimer.current), []);
  const cancelClose = useCallback(() => window.clearTimeout(closeTimer.current), []);
  const closeLater = useCallback(() => {
    cancelOpen();
    cancelClose();
    closeTimer.current = window.setTimeout(() => setOpen(null), HOVER_CARD_CLOSE_DELAY_MS);
  }, [cancelOpen, cancelClose]);
  const openLater = useCallback(
    (next: OpenCard) => {
      cancelOpen();
      openTimer.current = window.setTimeout(() => {
        cancelClose();
        setOpen((current) => (current?.trigger === next.trigger ? current : next));
      }, HOVER_CARD_OPEN_DELAY_MS);
    },
    [cancelOpen, cancelClose],
  );

  // The document's pointer and focus events, delegated to whichever trigger they are in.
  useEffect(() => {
    const sameTrigger = (event: Event & { relatedTarget: EventTarget | null }, trigger: HTMLElement) =>
      event.relatedTarget instanceof Node && trigger.contains(event.relatedTarget);
    const intoCard = (related: EventTarget | null) => related instanceof Node && Boolean(cardElement.current?.contains(related));
    const onPointerOver = (event: PointerEvent) => {
      if (event.pointerType === "touch") return;
      const found = trustTriggerOf(event.target);
      if (!found || sameTrigger(event, found.trigger)) return;
      // Back on the open card's trigger it stays; another trigger's card waits its 700 ms while this one closes.
      if (shown.current?.trigger === found.trigger) cancelClose();
      openLater(found);
    };
    const onPointerOut = (event: PointerEvent) => {
      if (event.pointerType === "touch") return;
      const found = trustTriggerOf(event.target);
      if (!found || sameTrigger(event, found.trigger) || intoCard(event.relatedTarget)) return;
      closeLater();
    };
    const onFocusIn = (event: FocusEvent) => {
      const found = trustTriggerOf(event.target);
      if (!found) return;
      if (shown.current?.trigger === found.trigger) cancelClose();
      openLater(found);
    };
    const onFocusOut = (event: FocusEvent) => {
      const found = trustTriggerOf(event.target);
      if (!found || sameTrigger(event, found.trigger)) return;
      closeLater();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      cancelOpen();
      setOpen(null);
    };
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && cardElement.current?.contains(event.target)) return;
      cancelOpen();
      setOpen(null);
    };
    const unlisten = listenOnDocument({
      pointerover: onPointerOver,
      pointerout: onPointerOut,
      focusin: onFocusIn,
      focusout: onFocusOut,
      keydown: onKeyDown,
      pointerdown: onPointerDown,
    });
    return () => {
      unlisten();
      cancelOpen();
      cancelClose();
    };
  }, [openLater, closeLater, cancelOpen, cancelClose]);

  // A navigation closes the card and forgets the figures (the next page may be about them changing).
  useEffect(() => {
    cancelOpen();
    setOpen(null);
    setLoaded((previous) => (previous.size === 0 ? previous : new Map()));
    const pending = requests.current;
    return () => {
      for (const controller of pending.values()) controller.abort();
      pending.clear();
    };
  }, [pathname, cancelOpen]);

  // The figures, asked when a member's card first opens (again after a failure).
  const memberId = open?.member.id;
  const state = memberId === undefined ? undefined : loaded.get(memberId);
  useEffect(() => {
    if (memberId === undefined || state?.card || requests.current.has(memberId)) return;
    const controller = new AbortController();
    requests.current.set(memberId, controller);
    const settle = (next: Loaded) => {
      requests.current.delete(memberId);
      setLoaded((previous) => new Map(previous).set(memberId, next));
    };
    fetchTrustCard(memberId, controller.signal)
      .then((card) => settle({ card, failed: false }))
      .catch(() => {
        if (!controller.signal.aborted) settle({ card: null, failed: true });
      });
    // Asked once per opening: a failure is shown, and the next opening asks again.
  }, [memberId, state?.card]);

  if (!open) return null;
  return createPortal(
    <Suspense fallback={null}>
      <FloatingCard
        trigger={open.trigger}
        cardRef={cardElement}
        onPointerEnter={cancelClose}
        onPointerLeave={(event) => {
          if (event.pointerType !== "touch" && !(event.relatedTarget instanceof Node && open.trigger.contains(event.relatedTarget))) closeLater();
        }}
        member={state?.card ?? open.member}
        card={state?.card ?? null}
        failed={state?.failed ?? false}
      />
    </Suspense>,
    document.body,
  );
}
