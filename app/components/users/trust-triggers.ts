/**
 * Which member each trust-card trigger on the page stands for (docs/decisions/0038-one-trust-card-per-page.md).
 * A trigger (`TrustHoverCard`) is a plain span; once mounted in the browser it is registered here
 * with its member, and the page's one `TrustCardHost` looks the hovered or focused span up. The
 * server renders no registration at all: a page with a hundred names carries a hundred spans and
 * nothing else.
 */
import type { MemberRef } from "~/components/users/trust-card";

/** The class every trigger carries (app/styles/components.css), by which the host finds it. */
export const TRUST_TRIGGER_CLASS = "trust-trigger";

const members = new WeakMap<Element, MemberRef>();

/**
 * A ref callback that registers the trigger element as `member`'s. A new callback each render is
 * fine: React detaches the old one and attaches this one, and the WeakMap forgets removed elements.
 */
export function trustTriggerRef(member: MemberRef): (element: HTMLElement | null) => void {
  return (element) => {
    if (element) members.set(element, member);
  };
}

/** The trigger around `target` and its member, or null when `target` is in none (or it is not yet hydrated). */
export function trustTriggerOf(target: EventTarget | null): { trigger: HTMLElement; member: MemberRef } | null {
  if (!(target instanceof Element)) return null;
  const trigger = target.closest<HTMLElement>(`.${TRUST_TRIGGER_CLASS}`);
  const member = trigger ? members.get(trigger) : undefined;
  return trigger && member ? { trigger, member } : null;
}
