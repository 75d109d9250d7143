import * as React from "react";
import * as TooltipPrimitive from "@radix-ui/react-tooltip";

import { cn } from "~/lib/utils";

/** Whether a `TooltipProvider` is above: a `Tooltip` without one brings its own. */
const ProvidedContext = React.createContext(false);

/**
 * The delays of the tooltips inside it (docs/product/interface.md#tooltips-and-hover-cards): the first
 * opens after 700 ms, and within 300 ms of one closing the next opens at once. Wrap a group of
 * tooltips (a toolbar, a list) so they share that; a lone `Tooltip` has a provider of its own.
 */
export function TooltipProvider({ delayDuration = 700, skipDelayDuration = 300, children, ...props }: React.ComponentProps<typeof TooltipPrimitive.Provider>) {
  return (
    <TooltipPrimitive.Provider delayDuration={delayDuration} skipDelayDuration={skipDelayDuration} {...props}>
      <ProvidedContext.Provider value={true}>{children}</ProvidedContext.Provider>
    </TooltipPrimitive.Provider>
  );
}

export function Tooltip(props: React.ComponentProps<typeof TooltipPrimitive.Root>) {
  const root = <TooltipPrimitive.Root data-slot="tooltip" {...props} />;
  return React.useContext(ProvidedContext) ? root : <TooltipProvider>{root}</TooltipProvider>;
}

export function TooltipTrigger(props: React.ComponentProps<typeof TooltipPrimitive.Trigger>) {
  return <TooltipPrimitive.Trigger data-slot="tooltip-trigger" {...props} />;
}

export function TooltipContent({ className, sideOffset = 4, children, ...props }: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        data-slot="tooltip-content"
        sideOffset={sideOffset}
        className={cn(
          "z-50 max-w-xs origin-(--radix-tooltip-content-transform-origin) overflow-hidden rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background shadow-md",
          "animate-zoom-in data-[state=closed]:animate-zoom-out",
          className,
        )}
        {...props}
      >
        {children}
      </TooltipPrimitive.Content>
    </TooltipPrimitive.Portal>
  );
}
