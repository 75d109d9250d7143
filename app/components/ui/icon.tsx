import type { SVGProps } from "react";
import { SPRITE_URL, type SpriteIconName } from "~/lib/icons";
import { cn } from "~/lib/utils";

export interface IconProps extends Omit<SVGProps<SVGSVGElement>, "children"> {
  /** lucide's kebab-case name of one of the sprite's icons (app/lib/icons.ts). */
  name: SpriteIconName;
}

/**
 * A lucide icon drawn from the shared sprite: `<svg class="icon"><use href="/icons.svg?v=…#heart"/></svg>`.
 * Looks like lucide-react's icon (24×24, 2 px round strokes in the text colour, class `.icon` in
 * app/styles/components.css); `className` sizes and colours it as usual (`size-4`, `fill-current`).
 * Decorative unless given an `aria-label`.
 */
export function Icon({ name, className, ...rest }: IconProps) {
  const labelled = rest["aria-label"] !== undefined || rest["aria-labelledby"] !== undefined;
  return (
    <svg className={cn("icon", className)} aria-hidden={labelled ? undefined : true} role={labelled ? "img" : undefined} {...rest}>
      <use href={`${SPRITE_URL}#${name}`} />
    </svg>
  );
}
