import * as React from "react";

import { cn } from "~/lib/utils";

export type SeparatorProps = React.ComponentProps<"div"> & {
  orientation?: "horizontal" | "vertical";
  /** Purely visual (default) — hidden from assistive technology. */
  decorative?: boolean;
};

export function Separator({ className, orientation = "horizontal", decorative = true, ...props }: SeparatorProps) {
  return (
    <div
      data-slot="separator"
      data-orientation={orientation}
      {...(decorative ? { role: "none" } : { role: "separator", "aria-orientation": orientation })}
      className={cn("shrink-0 bg-border", orientation === "horizontal" ? "h-px w-full" : "h-full w-px self-stretch", className)}
      {...props}
    />
  );
}
