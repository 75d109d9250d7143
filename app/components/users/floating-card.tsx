/**
 * The trust card's box (app/components/users/trust-card-host.tsx loads it after hydration): placed
 * under the hovered or focused trigger, above it when there is no room, and kept on screen.
 */
import { useCallback } from "react";
import { autoUpdate, flip, offset, shift, useFloating } from "@floating-ui/react-dom";

export default function FloatingCard({
  trigger,
  cardRef,
  onPointerEnter,
  onPointerLeave,
  children,
}: {
  trigger: HTMLElement;
  cardRef: React.RefObject<HTMLDivElement | null>;
  onPointerEnter: () => void;
  onPointerLeave: (event: React.PointerEvent) => void;
  children: React.ReactNode;
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
        {children}
      </div>
    </div>
  );
}
