/**
 * The route table: every URL of docs/product/routes.md#pages with its layout, plus the JSON calls of docs/product/routes.md#json-calls.
 * Layouts: auth, default, primitive and bare (app/layouts/). Pages that later issues fill
 * share the placeholder modules, which still apply the sign-in guard of their row.
 */
import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/** A page a later issue fills: public, or behind sign-in (docs/product/routes.md#pages, the access column). */
const soon = (path: string, id: string) => route(path, "routes/placeholder.tsx", { id });
const soonPrivate = (path: string, id: string) => route(path, "routes/placeholder-private.tsx", { id });

export default [
  layout("layouts/default.tsx", [
    index("routes/home.tsx"),
    route("articles", "routes/articles.tsx"),
    soon("faq", "faq"),
    soon("music", "music"),
    route("search", "routes/search.tsx"),
    route("leaderboard", "routes/leaderboard.tsx"),
    route("claims", "routes/claims/index.tsx"),
    route("claims/new", "routes/claims/new.tsx"),
    route("claims/:id", "routes/claims/claim.tsx"),
    soonPrivate("admin/stats", "admin-stats"),
    route("admin/recaptcha-status", "routes/admin/recaptcha-status.tsx"),
    route("profile", "routes/profile/index.tsx"),
    route("profile/posts", "routes/profile/posts.tsx"),
    route("profile/wallet", "routes/profile/wallet.tsx"),
    route("profile/deposit", "routes/profile/deposit.tsx"),
    route("profile/notifications", "routes/profile/notifications.tsx"),
    route("profile/bookmarks", "routes/profile/bookmarks.tsx"),
    route("profile/history", "routes/profile/history.tsx"),
    route("profile/achievements", "routes/profile/achievements.tsx"),
    route("profile/settings", "routes/profile/settings.tsx"),
    route("services/guarantor", "routes/guarantor/index.tsx"),
    route("services/guarantor/deals/:id", "routes/guarantor/deal.tsx"),
  ]),

  layout("layouts/bare.tsx", [
    soon("ads", "ads"),
    soon("chatgpt", "chatgpt"),
    route("blacklist", "routes/blacklist.tsx"),
    route("profile/conversations", "routes/conversations/page.tsx"),
    route("profile/:id", "routes/profile/public.tsx"),
    route("post/:id", "routes/posts/read.tsx"),
    // A form target: redirects back to the post, or explains a refused comment without JavaScript.
    route("post/:id/comments", "routes/posts/comments.tsx"),
    route("post/:id/edit", "routes/posts/edit.tsx"),
    route("posts/new", "routes/posts/new.tsx"),
    route("posts/new/preview", "routes/posts/preview.tsx"),
  ]),

  layout("layouts/auth.tsx", [
    route("auth/login", "routes/auth/login.tsx"),
    route("auth/register", "routes/auth/register.tsx"),
    route("auth/password/forgot", "routes/auth/password-forgot.tsx"),
    route("auth/password/reset", "routes/auth/password-reset.tsx"),
    route("auth/email/validate", "routes/auth/email-validate.tsx"),
    route("auth/email/change", "routes/auth/email-change.tsx"),
  ]),

  layout("layouts/primitive.tsx", [route("debug/tg", "routes/debug/tg.tsx")]),

  // Form targets (actions that redirect back; with JavaScript they answer fetchers).
  route("auth/logout", "routes/auth/logout.tsx"),
  route("profile/:id/wall", "routes/profile/wall.tsx"),
  route("profile/:id/follow", "routes/profile/follow.tsx"),
  route("profile/:id/block", "routes/profile/block.tsx"),
  route("profile/:id/message", "routes/conversations/start.ts"),
  route("likes", "routes/likes.tsx"),
  route("bookmarks", "routes/bookmarks.tsx"),

  route("sitemap.xml", "routes/sitemap.tsx"),
  route("sitemaps/:file", "routes/sitemap-part.tsx"),

  ...prefix("api", [
    route("auth/me", "routes/api/auth/me.ts"),
    route("auth/csrf", "routes/api/auth/csrf.ts"),
    route("auth/providers", "routes/api/auth/providers.ts"),
    route("auth/session", "routes/api/auth/session.ts"),
    route("auth/signin/:provider", "routes/api/auth/signin.ts", { id: "api-auth-signin" }),
    route("auth/callback/:provider", "routes/api/auth/signin.ts", { id: "api-auth-callback" }),
    route("auth/signout", "routes/api/auth/signout.ts"),
    route("auth/telegram", "routes/api/auth/telegram.ts"),
    route("settings/mainPageBackground", "routes/api/settings/main-page-background.ts"),
    route("profile/posts", "routes/api/profile/my-posts.ts"),
    route("profile/conversations/groups", "routes/api/conversations/groups.ts"),
    route("profile/conversation/group/:id", "routes/api/conversations/group.ts"),
    route("profile/conversation/group/:id/messages", "routes/api/conversations/group-messages.ts"),
    route("profile/conversations/groups/messages", "routes/api/conversations/groups-messages.ts"),
    route("profile/conversations/personal", "routes/api/conversations/personal-list.ts"),
    route("profile/conversation/personal/:id", "routes/api/conversations/personal.ts"),
    route("profile/conversation/personal/:id/messages", "routes/api/conversations/personal-messages.ts"),
    route("profile/conversations/personal/messages", "routes/api/conversations/personal-all-messages.ts"),
    route("profile/conversation/personal/user/:userId", "routes/api/conversations/personal-with-user.ts"),
    route("profile/conversations/messages/unread", "routes/api/conversations/unread.ts"),
    route("profile/notifications", "routes/api/notifications/list.ts"),
    route("profile/notifications/unread", "routes/api/notifications/unread.ts"),
    route("profile/payments/balance", "routes/api/payments/balance.ts"),
    route("profile/payments/deposit", "routes/api/payments/deposit.ts"),
    route("guarantor/deals", "routes/api/deals/list.ts"),
    route("guarantor/deals/:id", "routes/api/deals/deal.ts"),
    route("guarantor/deals/:id/actions", "routes/api/deals/actions.ts"),
    route("profile/payments/transfer", "routes/api/payments/transfer.ts"),
    route("profile/payments/holds/:id/release", "routes/api/payments/hold-release.ts"),
    route("profile/payments/deposit/withdrawal", "routes/api/payments/deposit-withdrawal.ts"),
    route("profile/payments/deposit/withdrawal/:id/cancel", "routes/api/payments/deposit-withdrawal-cancel.ts"),
    route("admin/payments/topup", "routes/api/payments/topup.ts"),
    // Server-sent events (docs/product/realtime.md#server-sent-events): ?type=group|personal&id=…&api-token=…, or type=notifications.
    route("sse", "routes/api/realtime/sse.ts"),
    route("profile/email/change/confirm", "routes/api/profile/email-change-confirm.ts"),
    route("profile/:id", "routes/api/profile/profile.ts"),
    route("profile/:id/posts", "routes/api/profile/posts.ts"),
    route("profile/:id/comments", "routes/api/profile/comments.ts"),
    route("profile/:id/wall", "routes/api/profile/wall.ts"),
    route("profile/:id/wall/pinned", "routes/api/profile/wall-pinned.ts"),
    route("profiles/search", "routes/api/profiles/search.ts"),
    route("profiles/online", "routes/api/profiles/online.ts"),
    route("profiles/blacklist", "routes/api/profiles/blacklist.ts"),
    route("claims", "routes/api/claims/file.ts"),
    route("claims/:id", "routes/api/claims/claim.ts"),
    route("claims/:id/decision", "routes/api/claims/decision.ts"),
    route("image", "routes/api/images/image.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
