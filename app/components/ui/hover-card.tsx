/**
 * Hover cards (docs/product/interface.md#tooltips-and-hover-cards): open after 700 ms of hovering,
 * close 300 ms after the pointer leaves. The one hover card is the trust card, opened by the page's
 * `TrustCardHost` (app/components/users/trust-card-host.tsx, decision 0038); its triggers stay
 * plain links, so without JavaScript (or on touch) they simply go where they point.
 */

/** ms before a hover card opens (docs/product/interface.md). */
export const HOVER_CARD_OPEN_DELAY_MS = 700;
/** ms before a hover card closes once the pointer left (docs/product/interface.md). */
export const HOVER_CARD_CLOSE_DELAY_MS = 300;
