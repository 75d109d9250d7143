import { describe, expect, it } from "vitest";
import { contrastRatio, parseSavedTheme, readableSignal, readableTextOn, rgbToHslComponents, themeStyle } from "./theme";
import type { ThemeColors } from "~/db/schema";

describe("rgbToHslComponents", () => {
  it.each([
    [[255, 0, 0], "0 100% 50%"],
    [[0, 0, 0], "0 0% 0%"],
    [[255, 255, 255], "0 0% 100%"],
    [[124, 58, 237], "262 83% 58%"],
  ] as const)("converts %j to %s", (rgb, hsl) => {
    expect(rgbToHslComponents(rgb)).toBe(hsl);
  });
});

describe("themeStyle", () => {
  it("leaves the default theme alone when the member has none", () => {
    expect(themeStyle(null)).toBeUndefined();
  });
  it("sets the three variables of docs/product/interface.md#theme", () => {
    const style = themeStyle({ primary: [255, 0, 0], secondary: [0, 0, 0], background: [255, 255, 255] });
    expect(style).toMatchObject({ "--primary": "0 100% 50%", "--secondary": "0 0% 0%", "--background": "0 0% 100%" });
  });
});

/** "h s% l%" back to RGB, as the browser reads the variables. */
function hslToRgb(components: string): [number, number, number] {
  const [h, s, l] = components.split(" ").map((part) => parseFloat(part)) as [number, number, number];
  const sn = s / 100;
  const ln = l / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sn * Math.min(ln, 1 - ln);
  const f = (n: number) => ln - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

describe("contrast (docs/product/interface.md#theme: text keeps WCAG AA 4.5:1)", () => {
  it("measures the WCAG ratio", () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([255, 255, 255], [255, 255, 255])).toBe(1);
    expect(contrastRatio([118, 118, 118], [255, 255, 255])).toBeGreaterThan(4.5);
  });
  it("picks light text on a dark colour and dark text on a light one", () => {
    expect(contrastRatio(readableTextOn([10, 10, 30]), [255, 255, 255])).toBeLessThan(1.2);
    expect(contrastRatio(readableTextOn([250, 250, 240]), [0, 0, 0])).toBeLessThan(1.5);
  });
  it.each([
    ["dark navy background", { primary: [124, 58, 237], secondary: [40, 40, 60], background: [12, 14, 40] }],
    ["black background, yellow primary", { primary: [250, 220, 0], secondary: [30, 30, 30], background: [0, 0, 0] }],
    ["mid grey background", { primary: [128, 128, 128], secondary: [120, 130, 140], background: [119, 119, 119] }],
    ["saturated red background", { primary: [0, 0, 255], secondary: [200, 0, 0], background: [220, 20, 20] }],
    ["light cream background", { primary: [255, 200, 0], secondary: [255, 255, 255], background: [253, 246, 227] }],
  ] as const)("keeps every text colour readable on a %s", (_name, theme) => {
    const style = themeStyle(theme as unknown as ThemeColors) as Record<string, string>;
    const pairs = [
      ["--foreground", "--background"],
      ["--muted-foreground", "--background"],
      ["--muted-foreground", "--card"],
      ["--muted-foreground", "--muted"],
      ["--card-foreground", "--card"],
      ["--popover-foreground", "--popover"],
      ["--primary-foreground", "--primary"],
      ["--secondary-foreground", "--secondary"],
      ["--accent-foreground", "--accent"],
      ["--destructive-foreground", "--destructive"],
      ["--success-foreground", "--success"],
      ["--destructive", "--background"],
      ["--destructive", "--card"],
      ["--success", "--background"],
      ["--success", "--card"],
    ] as const;
    for (const [text, surface] of pairs) {
      const ratio = contrastRatio(hslToRgb(style[text]!), hslToRgb(style[surface]!));
      expect(ratio, `${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("the text on a chosen colour is picked by contrast (docs/product/interface.md#theme)", () => {
  it.each([
    ["white on a dark violet", [124, 58, 237], "light"],
    ["near-black on a bright yellow", [250, 220, 0], "dark"],
    ["near-black on a light green", [0, 255, 0], "dark"],
    ["black on a pure red", [255, 0, 0], "black or white"],
    ["white on a navy", [20, 30, 90], "light"],
  ] as const)("%s", (_name, fill, expected) => {
    const text = readableTextOn(fill);
    expect(contrastRatio(text, fill)).toBeGreaterThanOrEqual(4.5);
    const luminanceOfText = contrastRatio(text, [0, 0, 0]);
    if (expected === "light") expect(luminanceOfText).toBeGreaterThan(15);
    if (expected === "dark") expect(luminanceOfText).toBeLessThan(1.3);
  });

  /** Every primary and background on a 6-step grid of each channel: 216 × 6 themes. */
  const grid = [0, 51, 102, 153, 204, 255].flatMap((r) =>
    [0, 51, 102, 153, 204, 255].flatMap((g) => [0, 51, 102, 153, 204, 255].map((b) => [r, g, b] as const)),
  );
  it("keeps 4.5:1 for the text on primary and destructive fills, as the browser reads the rounded variables", () => {
    const failures: string[] = [];
    for (const primary of grid) {
      for (const background of [
        [0, 0, 0],
        [18, 18, 30],
        [119, 119, 119],
        [200, 60, 60],
        [250, 250, 245],
        [255, 255, 255],
      ] as const) {
        const style = themeStyle({ primary: [...primary], secondary: [40, 40, 60], background: [...background] }) as Record<string, string>;
        for (const [text, fill] of [
          ["--primary-foreground", "--primary"],
          ["--destructive-foreground", "--destructive"],
          ["--destructive", "--background"],
        ] as const) {
          const ratio = contrastRatio(hslToRgb(style[text]!), hslToRgb(style[fill]!));
          if (ratio < 4.5) failures.push(`${text} on ${fill} ${JSON.stringify({ primary, background })}: ${ratio.toFixed(2)}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it("keeps the site's red where it reads and shades it where it does not", () => {
    expect(readableSignal([204, 31, 31], [[255, 255, 255]])).toEqual([204, 31, 31]);
    const onDark = readableSignal([204, 31, 31], [[12, 14, 40]]);
    expect(contrastRatio(onDark, [12, 14, 40])).toBeGreaterThanOrEqual(4.6);
    // Lighter, still red.
    expect(onDark[0]).toBeGreaterThan(onDark[1]);
    expect(onDark[0]).toBeGreaterThan(204);
  });
});

describe("parseSavedTheme (docs/product/interface.md#theme: an unparseable saved theme is ignored)", () => {
  const theme = { primary: [255, 0, 0], secondary: [0, 0, 0], background: [255, 255, 255] };
  it("reads a saved theme", () => {
    expect(parseSavedTheme(JSON.stringify(theme))).toEqual(theme);
  });
  it.each([
    null,
    "",
    "{",
    "null",
    "[]",
    JSON.stringify({ ...theme, primary: [256, 0, 0] }),
    JSON.stringify({ ...theme, background: [1, 2] }),
    JSON.stringify({ primary: theme.primary }),
  ])("ignores %j", (raw) => {
    expect(parseSavedTheme(raw)).toBeNull();
  });
});
