import * as React from "react";

import { cn } from "~/lib/utils";

export type InputProps = React.ComponentProps<"input">;

export function Input({ className, type, ...props }: InputProps) {
  return <input type={type} data-slot="input" className={cn("input", className)} {...props} />;
}
