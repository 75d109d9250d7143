/**
 * A hint's bubble (app/components/ui/hint.tsx loads it after hydration): above its control, below
 * when there is no room, kept on screen; styled as the site's tooltips are.
 */
import { autoUpdate, flip, offset, shift, useFloating } from "@floating-ui/react-dom";

export default function HintBubble({ id, control, label }: { id: string; control: HTMLElement; label: string }) {
  const { refs, floatingStyles } = useFloating({
    elements: { reference: control },
    placement: "top",
    middleware: [offset(4), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  return (
    <div ref={refs.setFloating} style={floatingStyles} className="pointer-events-none z-50">
      <div
        id={id}
        role="tooltip"
        data-testid="hint"
        className="max-w-xs animate-zoom-in overflow-hidden rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background shadow-md"
      >
        {label}
      </div>
    </div>
  );
}
