import { describe, expect, it } from "vitest";
import { parseSavedTheme, rgbToHslComponents, themeStyle } from "./theme";

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
    expect(style).toEqual({ "--primary": "0 100% 50%", "--secondary": "0 0% 0%", "--background": "0 0% 100%" });
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
