/**
 * /admin/reports (moderators and admins; docs/product/moderation.md#reports): the moderation
 * queue — items with open reports, the most reporters first, each with the item's text now, a
 * link to it, its author and the author's sanctions in force, every report (who, why, when) and
 * the decision: dismiss the reports (the item is shown again if reports hid it), delete the item
 * with an optional note, or suspend or mute the author with a reason and a period (the item is
 * deleted too unless kept; components/moderation/report-decision.tsx). Reporters hear the outcome
 * (REPORT_HANDLED). Works without JavaScript; a refusal (decided meanwhile, an overlong note, a
 * period in the past, a staff author) shows its Russian reason in the item's card.
 */
import { ExternalLink, Flag } from "lucide-react";
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/reports";
import { resultFor, type FormActionData } from "~/components/forms/action-data";
import { ReportDecisionForm, ReportedMemberSanctions, reportGroupKey } from "~/components/moderation/report-decision";
import { Avatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { Pagination } from "~/components/ui/pagination";
import { listReportQueue, resolveReports } from "~/domain/moderation/report-queue.server";
import { ResolveReportsFormSchema, sanctionEndsAt } from "~/domain/moderation/schemas";
import { REPORT_OUTCOME_LABELS, type ReportGroupDto } from "~/domain/moderation/types";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { formatDateTime, plural } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";
import { runFormAction } from "~/routes/_shared/money-form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Жалобы");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const search = new URL(request.url).searchParams;
  return pageData(async () => ({ queue: await listReportQueue(context.db, user.id, parsePageParams(search, { perPage: 20 })) }));
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: ResolveReportsFormSchema,
    fieldFor: { invalid_period: ["until", "period"] },
    async perform(moderator, value) {
      const now = new Date();
      const sanction = value.outcome === "suspend" || value.outcome === "mute";
      const result = await resolveReports(
        context.db,
        moderator.id,
        {
          targetType: value.targetType,
          targetId: value.targetId,
          outcome: value.outcome,
          reason: value.reason ?? null,
          endsAt: sanction ? sanctionEndsAt(value.period ?? "forever", value.until, now) : null,
          deleteItem: value.keepItem !== "on",
        },
        now,
      );
      const reporters = `${result.resolvedReports} ${plural(result.resolvedReports, ["жалоба", "жалобы", "жалоб"])}`;
      // A profile's card sanctions the member themselves, not an author.
      const label = REPORT_OUTCOME_LABELS[value.outcome].replace(/^Автор/, value.targetType === "profile" ? "Участник" : "Автор");
      return {
        toast: {
          title: `Решение принято: ${label.toLowerCase()}`,
          description: `Рассмотрено: ${reporters}. Авторы жалоб получили уведомление.`,
        },
      };
    },
  });
}

const STATE_LABELS: Record<ReportGroupDto["state"], string> = {
  visible: "Виден всем",
  hidden: "Скрыт по жалобам",
  deleted: "Удалён",
  gone: "Удалён автором",
};

export default function ReportQueuePage({ loaderData, actionData }: Route.ComponentProps) {
  const { queue } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="flex items-center gap-2 font-heading text-3xl font-extrabold">
          <Flag aria-hidden className="size-7 text-primary" /> Жалобы
        </h1>
        <p className="mt-1 text-muted-foreground">
          {queue.total === 0
            ? "Открытых жалоб нет."
            : `${queue.total} ${plural(queue.total, ["материал ждёт", "материала ждут", "материалов ждут"])} решения. Сначала — те, на которые жалуется больше всего участников.`}
        </p>
      </div>
      {queue.items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground" data-testid="report-queue-empty">
          Очередь пуста — всё рассмотрено.
        </p>
      ) : (
        <ol className="grid gap-4" aria-label="Очередь жалоб">
          {queue.items.map((group) => (
            <li key={reportGroupKey(group)}>
              <ReportGroupCard group={group} lastResult={resultFor(actionData as FormActionData | undefined, reportGroupKey(group))} />
            </li>
          ))}
        </ol>
      )}
      <Pagination page={queue.page} totalPages={queue.totalPages} makeHref={(page) => withSearchParam(location.pathname, location.search, "page", page)} />
    </div>
  );
}

function ReportGroupCard({ group, lastResult }: { group: ReportGroupDto; lastResult: FormActionData["result"] | undefined }) {
  const key = reportGroupKey(group);
  return (
    <article data-testid="report-group" data-target={key} className="rounded-xl border border-border bg-card p-5 shadow-sm">
      <header className="flex flex-wrap items-center gap-2">
        <Badge variant="secondary">{group.targetLabel}</Badge>
        <Badge
          variant="outline"
          data-testid="report-item-state"
          className={
            group.state === "hidden"
              ? "border-amber-500/50 bg-amber-500/10 text-amber-800 dark:text-amber-300"
              : group.state === "visible"
                ? undefined
                : "text-muted-foreground"
          }
        >
          {STATE_LABELS[group.state]}
        </Badge>
        <span className="text-sm font-semibold" data-testid="report-count">
          {group.reporterCount} {plural(group.reporterCount, ["участник пожаловался", "участника пожаловались", "участников пожаловались"])}
        </span>
        <span className="flex flex-wrap gap-1">
          {group.reasons.map((reason) => (
            <Badge key={reason.reason} variant="outline">
              {reason.label}
              {reason.count > 1 ? ` ×${reason.count}` : ""}
            </Badge>
          ))}
        </span>
        <span className="ml-auto text-xs text-muted-foreground">последняя {formatDateTime(group.lastReportedAt)}</span>
      </header>

      <div className="mt-4 flex items-center gap-3 text-sm">
        <Avatar username={group.targetUser.username} src={group.targetUser.image} size="sm" link={`/profile/${group.targetUser.id}`} />
        <span>
          {group.targetType === "profile" ? "Участник" : "Автор"}:{" "}
          <Link to={`/profile/${group.targetUser.id}`} className="font-semibold hover:underline">
            {group.targetUser.username}
          </Link>
        </span>
      </div>
      <ReportedMemberSanctions sanctions={group.targetUserSanctions} profile={group.targetType === "profile"} />
      <blockquote className="mt-3 border-l-4 border-border pl-4 text-sm break-words whitespace-pre-line text-foreground/90" data-testid="report-excerpt">
        {group.excerpt || "—"}
      </blockquote>
      {group.url ? (
        <p className="mt-2">
          <Link to={group.url} className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
            <ExternalLink aria-hidden className="size-3.5" /> Открыть {group.targetType === "profile" ? "профиль" : "на сайте"}
          </Link>
        </p>
      ) : null}

      <details className="mt-4 text-sm" open={group.reports.length <= 3}>
        <summary className="cursor-pointer font-medium">Жалобы ({group.reports.length})</summary>
        <ul className="mt-2 grid gap-2">
          {group.reports.map((report) => (
            <li key={report.id} className="rounded-md bg-muted/50 p-3" data-testid="report-entry">
              <span className="font-semibold">{report.reporter.username}</span> · {report.reasonLabel} ·{" "}
              <time dateTime={report.createdAt} className="text-muted-foreground">
                {formatDateTime(report.createdAt)}
              </time>
              {report.details ? <p className="mt-1 break-words whitespace-pre-line">{report.details}</p> : null}
            </li>
          ))}
        </ul>
      </details>

      <ReportDecisionForm group={group} lastResult={lastResult} />
    </article>
  );
}
