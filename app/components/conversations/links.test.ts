import { describe, expect, it } from "vitest";
import { conversationHref, isReadMarking } from "./links";

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.set(key, value);
  return data;
};
const page = new URL("http://x/profile/conversations?group=4");

describe("isReadMarking (the root loader skips it)", () => {
  it("is the read fetcher of the conversation on screen", () => {
    const action = conversationHref({ kind: "group", id: 4 });
    expect(isReadMarking({ formAction: action, formData: form({ intent: "read", upTo: "9" }), currentUrl: page })).toBe(true);
  });

  it("is nothing else: another intent or page, a notification read, or the member moved on", () => {
    const action = conversationHref({ kind: "group", id: 4 });
    expect(isReadMarking({ formAction: action, formData: form({ intent: "send", body: "Привет" }), currentUrl: page })).toBe(false);
    expect(isReadMarking({ formAction: "/profile/notifications", formData: form({ intent: "read", id: "3" }), currentUrl: page })).toBe(false);
    expect(isReadMarking({ formAction: action, formData: form({ intent: "read" }), currentUrl: new URL("http://x/") })).toBe(false);
    expect(isReadMarking({ currentUrl: page })).toBe(false);
  });
});
