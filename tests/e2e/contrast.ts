/**
 * Text contrast as the browser paints it (docs/product/interface.md#theme): the WCAG ratio of an
 * element's text colour to the background showing behind it, the translucent layers of its
 * ancestors composited over the page.
 */
import type { Locator } from "@playwright/test";

/** The WCAG contrast ratio (1 … 21) of the locator's text on what is painted behind it. */
export function textContrast(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba => {
      const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(value);
      if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
      const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)$/.exec(value);
      if (srgb) return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255, srgb[4] === undefined ? 1 : Number(srgb[4])];
      throw new Error(`unreadable colour ${value}`);
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + bottom[i]! * (1 - top[3])).concat(1) as Rgba;
    // The layers from the element out to the document, then painted from the outermost in.
    const layers: Rgba[] = [];
    for (let node: Element | null = element; node; node = node.parentElement) layers.push(parse(getComputedStyle(node).backgroundColor));
    const behind = layers.reduceRight<Rgba>((painted, layer) => over(layer, painted), [255, 255, 255, 1]);
    const text = over(parse(getComputedStyle(element).color), behind);
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const [a, b] = [luminance(text), luminance(behind)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}
