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
import { forwardRef, type ComponentProps } from "react";
import { Form as RouterForm, Link as RouterLink, NavLink as RouterNavLink } from "react-router";

/** react-router's `<Link>`, without the route discovery attribute. */
export const Link = forwardRef<HTMLAnchorElement, ComponentProps<typeof RouterLink>>(function Link(props, ref) {
  return <RouterLink discover="none" ref={ref} {...props} />;
});

/** react-router's `<NavLink>`, without the route discovery attribute. */
export const NavLink = forwardRef<HTMLAnchorElement, ComponentProps<typeof RouterNavLink>>(function NavLink(props, ref) {
  return <RouterNavLink discover="none" ref={ref} {...props} />;
});

/** react-router's `<Form>`, without the route discovery attribute. */
export const Form = forwardRef<HTMLFormElement, ComponentProps<typeof RouterForm>>(function Form(props, ref) {
  return <RouterForm discover="none" ref={ref} {...props} />;
});
