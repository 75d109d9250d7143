/** Sideways scrolling of the page (docs/product/interface.md#phones), for the look and a11y journeys. */
import type { Page } from "@playwright/test";

/**
 * The document's width against the window's, and up to `limit` elements to blame when it is wider:
 * the outermost ones sticking out on the right (their parent fits), or text spilling out of its box
 * (a long word in a heading); inside a box that scrolls or clips sideways (the sections strip)
 * nothing makes the page scroll, so such elements are not blamed.
 */
export async function sidewaysOverflow(page: Page, limit = 5): Promise<{ scrollWidth: number; clientWidth: number; culprits: string[] }> {
  return page.evaluate((most) => {
    const root = document.scrollingElement ?? document.documentElement;
    const sticksOut = (element: Element | null) => Boolean(element && element.getBoundingClientRect().right > root.clientWidth + 1);
    const clipped = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement)
        if (getComputedStyle(box).overflowX !== "visible") return true;
      return false;
    };
    const culprits = [...document.body.querySelectorAll("*")]
      .filter(
        (element) =>
          (sticksOut(element) && !sticksOut(element.parentElement) && !clipped(element)) ||
          (element.children.length === 0 && element.getBoundingClientRect().left + element.scrollWidth > root.clientWidth + 1 && !clipped(element)),
      )
      .slice(0, most)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${String(element.getAttribute("class") ?? "").slice(0, 80)} «${(element.textContent ?? "").slice(0, 30)}»`,
      );
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits };
  }, limit);
}
