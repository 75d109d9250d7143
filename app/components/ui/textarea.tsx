import * as React from "react";

import { cn } from "~/lib/utils";

export type TextareaProps = React.ComponentProps<"textarea">;

export function Textarea({ className, ...props }: TextareaProps) {
  return <textarea data-slot="textarea" className={cn("textarea", className)} {...props} />;
}
