/**
 * /profile/settings (sign-in required; issue 6 item 4): display name and bio, avatar upload
 * (square-cropped, 256×256) and removal, the colour theme of docs/product/interface.md#theme, password change
 * (signs out the other sessions), the Telegram link, the api token, and a link to the email
 * change page. Each is its own form posting here with an `intent` (settings.server.ts runs
 * them); all work without JavaScript.
 */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/settings";
import { resultFor } from "~/components/forms/action-data";
import { AvatarForms, ProfileForm } from "~/components/settings/profile-forms";
import { ApiTokenForm, EmailSection, PasswordForm, TelegramSection } from "~/components/settings/security-forms";
import { ThemeForms } from "~/components/settings/theme-form";
import { canSignInWithoutTelegram } from "~/domain/users/settings.server";
import { requireUser } from "~/lib/auth.server";
import { getCurrentSession } from "~/lib/session.server";
import { pageMeta } from "~/lib/meta";
import { runSettingsAction } from "./settings.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Настройки");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  // requireUser found the session, so this is the same lookup (cached per request).
  const session = (await getCurrentSession(context.db, request, context))!;
  return {
    settings: {
      username: user.username,
      displayName: user.displayName,
      bio: user.bio,
      image: user.image,
      theme: user.theme ?? null,
      email: user.email,
      emailVerified: user.emailVerified,
      hasPassword: user.passwordHash !== null,
      telegramLinked: user.telegramId !== null,
      telegramUsername: user.telegramUsername,
      canUnlinkTelegram: canSignInWithoutTelegram(user),
      // Enough to tell tokens apart after «Сменить токен»; the whole token never reaches the page.
      tokenHint: `${session.apiToken.slice(0, 6)}…`,
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runSettingsAction(context, request);
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const s = loaderData.settings;
  // Every post lands on a new location: the forms start again from the saved values (typed
  // passwords are cleared), and a refused form shows its reply (Conform reads it on mount).
  const location = useLocation();
  return (
    <div className="grid gap-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="font-heading text-3xl font-extrabold">Настройки</h1>
        <Link to="/profile" className="text-sm font-medium text-primary hover:underline">
          ← Мой профиль
        </Link>
      </div>
      <div key={location.key} className="grid gap-6 lg:grid-cols-2">
        <ProfileForm displayName={s.displayName} bio={s.bio} lastResult={resultFor(actionData, "profile")} />
        <AvatarForms username={s.username} image={s.image} lastResult={resultFor(actionData, "avatar")} removeResult={resultFor(actionData, "avatar-remove")} />
        <ThemeForms theme={s.theme} lastResult={resultFor(actionData, "theme")} resetResult={resultFor(actionData, "theme-reset")} />
        <PasswordForm hasPassword={s.hasPassword} lastResult={resultFor(actionData, "password")} />
        <TelegramSection
          telegramUsername={s.telegramUsername}
          linked={s.telegramLinked}
          canUnlink={s.canUnlinkTelegram}
          linkResult={resultFor(actionData, "telegram-link")}
          unlinkResult={resultFor(actionData, "telegram-unlink")}
        />
        <EmailSection email={s.email} verified={s.emailVerified} />
        <ApiTokenForm tokenHint={s.tokenHint} lastResult={resultFor(actionData, "api-token")} />
      </div>
    </div>
  );
}
