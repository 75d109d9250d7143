/**
 * /report?type=post|comment|wall_post|message|profile&id=…&back=… (sign-in required;
 * docs/product/moderation.md#reports): the report form as a page of its own, for members
 * without JavaScript (with it, ReportButton opens the same form in a dialog and posts here).
 * A filed report sent by the dialog goes back to `back` with a toast; without JavaScript it
 * comes back here (`sent=1`) to say so, with the link back. A refusal (duplicate, one's own item, an
 * unknown or deleted item, bad text) shows the form again with the Russian reason.
 */
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/report";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import { ReportForm } from "~/components/moderation/report-form";
import { fileReport } from "~/domain/moderation/reports.server";
import { ReportFormSchema } from "~/domain/moderation/schemas";
import { REPORT_TARGET_LABELS, type ReportTargetType } from "~/domain/moderation/types";
import { REPORT_TARGET_TYPES } from "~/db/moderation-values";
import { requireUser } from "~/lib/auth.server";
import { isValidId } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { safeRedirect } from "~/lib/session.server";
import { runFormAction } from "~/routes/_shared/money-form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Жалоба");

/** Where a report of `type` goes back to when no `back` is given. */
function defaultBack(type: ReportTargetType, id: number): string {
  return type === "post" ? `/post/${id}` : type === "profile" ? `/profile/${id}` : "/";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  const search = new URL(request.url).searchParams;
  const type = search.get("type");
  const id = Number(search.get("id"));
  if (!(REPORT_TARGET_TYPES as readonly (string | null)[]).includes(type) || !isValidId(id)) return { target: null, back: "/", sent: false };
  const targetType = type as ReportTargetType;
  return { target: { type: targetType, id }, back: safeRedirect(search.get("back"), defaultBack(targetType, id)), sent: search.get("sent") === "1" };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: ReportFormSchema,
    async perform(reporter, value) {
      await fileReport(context.db, reporter.id, value);
      const url = new URL(request.url);
      const back = safeRedirect(url.searchParams.get("back"), defaultBack(value.targetType, value.targetId));
      // runFormAction read a clone of the body: the request's own body is still unread.
      if (!sentByFetcher(await request.formData())) {
        url.searchParams.set("sent", "1");
        return { redirectTo: `${url.pathname}${url.search}` };
      }
      return { redirectTo: back, toast: { title: "Жалоба отправлена", description: "Модераторы рассмотрят её и сообщат вам о решении." } };
    },
  });
}

export default function ReportPage({ loaderData, actionData }: Route.ComponentProps) {
  const { target, back, sent } = loaderData;
  return (
    <div className="mx-auto grid max-w-xl gap-6">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Жалоба</h1>
        {target ? (
          <p className="mt-1 text-muted-foreground">
            {REPORT_TARGET_LABELS[target.type]} № {target.id}. Модераторы рассмотрят жалобу и сообщат вам о решении.
          </p>
        ) : null}
      </div>
      {sent ? (
        <p role="status" data-testid="report-sent" className="rounded-md border border-emerald-500/40 bg-emerald-500/10 p-4">
          Жалоба отправлена. Модераторы рассмотрят её и сообщат вам о решении в уведомлениях.
        </p>
      ) : target ? (
        <ReportForm type={target.type} id={target.id} back={back} lastResult={actionData?.result} />
      ) : (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
          На это нельзя пожаловаться: ссылка неполная или устарела.
        </p>
      )}
      <p>
        <Link to={back} className="font-medium text-primary hover:underline">
          ← Вернуться
        </Link>
      </p>
    </div>
  );
}
