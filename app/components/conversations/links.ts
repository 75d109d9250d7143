/** Addresses of the conversations page (docs/product/conversations.md: /profile/conversations?group={id} or ?personal={id}). */

/** A conversation as URLs and channels name it: the public conversation is a "group". */
export interface ConversationAddress {
  kind: "group" | "personal";
  id: number;
}

/** The conversations page (docs/product/conversations.md), where every conversation form posts. */
export const CONVERSATIONS_PATH = "/profile/conversations";

/** The page's address of a conversation, with extra query values (before, reply, edit). */
export function conversationHref(address: ConversationAddress, extra: Record<string, string | number> = {}): string {
  const query = new URLSearchParams({ [address.kind]: String(address.id) });
  for (const [key, value] of Object.entries(extra)) query.set(key, String(value));
  return `${CONVERSATIONS_PATH}?${query.toString()}`;
}

/** The anchor of a message on the page. */
export const messageAnchor = (id: number) => `message-${id}`;

/**
 * True for the fetcher that marks the conversation on screen read as its messages arrive
 * (intent=read posted to the conversations page while the member is still on it). It changes
 * nothing the member sees — the browser already counts that conversation read — so no loader
 * needs to run again after it; once the member is elsewhere, loaders run as usual and the
 * unread figures catch up.
 */
export function isReadMarking(submission: { formAction?: string; formData?: FormData; currentUrl: URL }): boolean {
  const { formAction, formData, currentUrl } = submission;
  if (!formAction || formData?.get("intent") !== "read" || currentUrl.pathname !== CONVERSATIONS_PATH) return false;
  return new URL(formAction, currentUrl).pathname === CONVERSATIONS_PATH;
}
