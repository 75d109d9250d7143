/**
 * /profile/history (sign-in required; issue 6 "Sessions"): the member's active sessions, the
 * current one marked «это устройство», with «Завершить» per session and «Выйти на других
 * устройствах»; below, the sign-in history (time, method, IP, device), newest first, 10 a page.
 * Both actions are plain form posts answered by a redirect with a toast, so they work without
 * JavaScript. Ending the current session clears the cookie and goes to the login page.
 * Live realtime connections are left open (see domain/users/sessions.server.ts).
 */
import { useLocation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/history";
import { ActiveSessions, SignInHistory } from "~/components/sessions/session-lists";
import { Pagination } from "~/components/ui/pagination";
import { endOtherSessions, endSession, listActiveSessions, listSignInEvents } from "~/domain/users/sessions.server";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { parseForm } from "~/routes/_shared/form-target.server";
import { readForm } from "~/lib/forms.server";
import { formatCount, plural } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { destroyUserSession, getSessionId } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Сеансы и история входов");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const sessionId = await getSessionId(request);
  const [sessions, history] = await Promise.all([
    listActiveSessions(context.db, user.id, sessionId),
    listSignInEvents(context.db, user.id, parsePageParams(new URL(request.url).searchParams)),
  ]);
  return { sessions, history };
}

const HistoryActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("end-others") }),
  z.object({ intent: z.literal("end"), handle: z.string().trim().min(1).max(64) }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    const form = await readForm(request);
    await validateCsrf(request);
    const input = parseForm(HistoryActionSchema, form);
    const sessionId = await getSessionId(request);
    if (input.intent === "end-others") {
      const ended = await endOtherSessions(context.db, user.id, sessionId);
      const description = ended > 0 ? `Завершено ${formatCount(ended)} ${plural(ended, ["сеанс", "сеанса", "сеансов"])}.` : "Других сеансов не было.";
      return redirectWithToast("/profile/history", { title: "Вы вышли на других устройствах", description });
    }
    const { wasCurrent } = await endSession(context.db, user.id, input.handle, sessionId);
    if (wasCurrent) {
      const cookie = await destroyUserSession(context.db, request);
      return redirectWithToast("/auth/login", { title: "Вы вышли из аккаунта" }, [cookie]);
    }
    return redirectWithToast("/profile/history", { title: "Сеанс завершён" });
  });
}

export default function HistoryPage({ loaderData }: Route.ComponentProps) {
  const { sessions, history } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-8">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Сеансы и история входов</h1>
        <p className="mt-1 text-muted-foreground">Если вы не узнаёте устройство или вход, завершите сеанс и смените пароль в настройках.</p>
      </div>
      <ActiveSessions sessions={sessions} />
      <SignInHistory events={history.items} />
      <Pagination page={history.page} totalPages={history.totalPages} makeHref={(p) => withSearchParam("/profile/history", location.search, "page", p)} />
    </div>
  );
}
