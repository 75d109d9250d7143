/**
 * Tap targets on phones (docs/product/interface.md#phones): every visible link and button in a
 * part of the page is at least 44 px tall, and 44 px wide or with room for a 44 px wide finger
 * beside it (no other target within the 44 px box centred on it). Links inside running text
 * (a name or a link in a sentence, WCAG 2.5.8's inline exception) are left out: the line decides
 * their height.
 */
import type { Page } from "@playwright/test";

/** The smallest tap target a finger hits reliably, in CSS px. */
export const MIN_TAP = 44;

/** One line per target that is too small: its text or label, its size, and its classes. */
export function smallTapTargets(page: Page, scope: string): Promise<string[]> {
  return page.evaluate(
    ([scopeSelector, min]) => {
      const root = document.querySelector(scopeSelector);
      if (!root) return [`no ${scopeSelector} on the page`];
      const selector = "a[href], button, [role='button'], [role='tab'], summary";
      const visible = (element: Element) => {
        const box = element.getBoundingClientRect();
        // Screen-reader-only text (1×1 px) and hidden parts are nothing to tap.
        return box.width > 2 && box.height > 2 && element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
      };
      /** A link in running text: an inline box inside a block that holds more text than the link. */
      const inText = (element: Element) => {
        if (getComputedStyle(element).display !== "inline") return false;
        let block = element.parentElement;
        while (block && getComputedStyle(block).display === "inline") block = block.parentElement;
        const own = (element.textContent ?? "").trim().length;
        return Boolean(block && (block.textContent ?? "").trim().length > own + 1);
      };
      const targets = [...root.querySelectorAll(selector)].filter((element) => visible(element) && !element.closest("[inert], [aria-hidden='true']"));
      // A target nested in another (a button inside a link) is measured as the outer one.
      const outer = targets.filter((element) => !targets.some((other) => other !== element && other.contains(element)));
      const boxes = outer.map((element) => element.getBoundingClientRect());
      const describe = (element: Element, box: DOMRect) => {
        const name = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
        return `${element.tagName.toLowerCase()} «${name}» ${Math.round(box.width)}×${Math.round(box.height)} .${String(element.getAttribute("class") ?? "").slice(0, 70)}`;
      };
      const problems: string[] = [];
      outer.forEach((element, index) => {
        const box = boxes[index]!;
        if (inText(element)) return;
        if (box.height < min - 0.5) {
          problems.push(describe(element, box));
          return;
        }
        if (box.width >= min - 0.5) return;
        // Narrow but alone: the 44 px box centred on it touches no other target.
        const cx = box.left + box.width / 2;
        const reach = { left: cx - min / 2, right: cx + min / 2, top: box.top, bottom: box.bottom };
        const crowded = boxes.some(
          (other, j) =>
            j !== index && other.left < reach.right - 0.5 && other.right > reach.left + 0.5 && other.top < reach.bottom - 0.5 && other.bottom > reach.top + 0.5,
        );
        if (crowded) problems.push(describe(element, box));
      });
      return problems;
    },
    [scope, MIN_TAP] as const,
  );
}
