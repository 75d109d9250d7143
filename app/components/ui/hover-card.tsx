/**
 * Hover cards (docs/product/interface.md#tooltips-and-hover-cards): open after
 * 700 ms of hovering, close 300 ms after the pointer leaves. The trigger stays a plain link, so
 * without JavaScript (or on touch) it simply goes where it points.
 */
import * as React from "react";
import * as HoverCardPrimitive from "@radix-ui/react-hover-card";

import { cn } from "~/lib/utils";

/** ms before a hover card opens (docs/product/interface.md). */
export const HOVER_CARD_OPEN_DELAY_MS = 700;
/** ms before a hover card closes once the pointer left (docs/product/interface.md). */
export const HOVER_CARD_CLOSE_DELAY_MS = 300;

export function HoverCard({
  openDelay = HOVER_CARD_OPEN_DELAY_MS,
  closeDelay = HOVER_CARD_CLOSE_DELAY_MS,
  ...props
}: React.ComponentProps<typeof HoverCardPrimitive.Root>) {
  return <HoverCardPrimitive.Root data-slot="hover-card" openDelay={openDelay} closeDelay={closeDelay} {...props} />;
}

export function HoverCardTrigger(props: React.ComponentProps<typeof HoverCardPrimitive.Trigger>) {
  return <HoverCardPrimitive.Trigger {...props} />;
}

export function HoverCardContent({ className, align = "center", sideOffset = 4, ...props }: React.ComponentProps<typeof HoverCardPrimitive.Content>) {
  return (
    <HoverCardPrimitive.Portal>
      <HoverCardPrimitive.Content
        data-slot="hover-card-content"
        align={align}
        sideOffset={sideOffset}
        className={cn(
          "z-50 w-72 origin-(--radix-hover-card-content-transform-origin) rounded-md border bg-popover p-4 text-popover-foreground shadow-md outline-hidden",
          "animate-zoom-in data-[state=closed]:animate-zoom-out",
          className,
        )}
        {...props}
      />
    </HoverCardPrimitive.Portal>
  );
}
