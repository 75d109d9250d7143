/**
 * The hovered member's trust card in its box (app/components/users/trust-card-host.tsx loads it
 * after hydration): placed under the hovered or focused trigger, above it when there is no room,
 * and kept on screen. `card` is null until the figures come; `failed` when they could not.
 */
import { useCallback } from "react";
import { autoUpdate, flip, offset, shift, useFloating } from "@floating-ui/react-dom";
import type { MemberRef } from "~/components/users/trust-card";
import { TrustCard } from "~/components/users/trust-card-body";
import type { TrustCardDto } from "~/domain/users/trust-card.server";

export default function FloatingCard({
  trigger,
  cardRef,
  onPointerEnter,
  onPointerLeave,
  member,
  card,
  failed,
}: {
  trigger: HTMLElement;
  cardRef: React.RefObject<HTMLDivElement | null>;
  onPointerEnter: () => void;
  onPointerLeave: (event: React.PointerEvent) => void;
  member: MemberRef;
  card: TrustCardDto | null;
  failed: boolean;
}) {
  const { refs, floatingStyles } = useFloating({
    elements: { reference: trigger },
    placement: "bottom",
    middleware: [offset(4), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  const setCard = useCallback(
    (element: HTMLDivElement | null) => {
      cardRef.current = element;
      refs.setFloating(element);
    },
    [cardRef, refs],
  );
  return (
    <div ref={setCard} style={floatingStyles} className="z-50" onPointerEnter={onPointerEnter} onPointerLeave={onPointerLeave}>
      <div
        data-testid="trust-card"
        data-slot="hover-card-content"
        className="w-80 max-w-[calc(100vw-16px)] animate-zoom-in rounded-md border bg-popover p-4 text-popover-foreground shadow-md outline-hidden"
      >
        <TrustCard member={member} card={card} failed={failed} />
      </div>
    </div>
  );
}
