/**
 * react-router's Link, NavLink and Form with route discovery off (`discover="none"`).
 *
 * The app ships every route's manifest up front (`routeDiscovery: { mode: "initial" }` in
 * react-router.config.ts, docs/decisions/0032), so the `data-discover="true"` attribute react-router
 * puts on each link and form by default only weighs the page: 228 of them were 4.8 KB of the post
 * page with 50 comments (issue 12, page weight). Import these instead of react-router's (an ESLint
 * rule says so); a caller may still pass `discover`. A fetcher's `<Form>` keeps the attribute:
 * its props' type has no `discover`.
 */
import type { ComponentProps } from "react";
import { Form as RouterForm, Link as RouterLink, NavLink as RouterNavLink } from "react-router";

// React 19 passes `ref` as a prop, so the wrappers need no forwardRef.

/** react-router's `<Link>`, without the route discovery attribute. */
export function Link(props: ComponentProps<typeof RouterLink>) {
  return <RouterLink discover="none" {...props} />;
}

/** react-router's `<NavLink>`, without the route discovery attribute. */
export function NavLink(props: ComponentProps<typeof RouterNavLink>) {
  return <RouterNavLink discover="none" {...props} />;
}

/** react-router's `<Form>`, without the route discovery attribute. */
export function Form(props: ComponentProps<typeof RouterForm>) {
  return <RouterForm discover="none" {...props} />;
}
