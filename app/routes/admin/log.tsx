/**
 * /admin/log (moderators and admins; docs/product/moderation.md#audit-log): the append-only audit
 * log, newest first, 30 a page, filtered by who acted, whom it concerned (username or id), the
 * action and the days (Moscow, inclusive). The filter is a GET form (no JavaScript needed); a bad
 * filter — an unknown member, a malformed date, a period that ends before it starts — shows a
 * Russian message above an empty list.
 */
import { useLocation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import type { Route } from "./+types/log";
import { selectClass } from "~/components/admin/admin-ui";
import { AuditEntryList } from "~/components/admin/audit-entry-list";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import { listAuditLog } from "~/domain/moderation/audit.server";
import { AuditLogQuerySchema } from "~/domain/moderation/schemas";
import { AUDIT_ACTION_LABELS, type AuditAction } from "~/domain/moderation/types";
import { requireUser } from "~/lib/auth.server";
import { AppError, pageData } from "~/lib/errors";
import { formatCount } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parsePageParams, toPage } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Журнал действий — администрирование");

const PER_PAGE = 30;
const FIELDS = ["actor", "targetUser", "action", "from", "to"] as const;

/** A member filter: an id when all digits, else a username. */
function who(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  return /^\d{1,9}$/.test(value) ? Number(value) : value.slice(0, 100);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const raw = Object.fromEntries(FIELDS.map((key) => [key, (url.searchParams.get(key) ?? "").slice(0, 100)])) as Record<(typeof FIELDS)[number], string>;
  const params = parsePageParams(url.searchParams, { perPage: PER_PAGE });
  const parsed = AuditLogQuerySchema.safeParse(raw);
  return pageData(async () => {
    if (!parsed.success) {
      // Still check access before answering with the message.
      await listAuditLog(context.db, user.id, {}, { page: 1, perPage: 1 });
      return { page: toPage([], 0, params), values: raw, error: "Дата — в виде ГГГГ-ММ-ДД" };
    }
    const filter = { ...parsed.data, actor: who(parsed.data.actor), targetUser: who(parsed.data.targetUser) };
    try {
      return { page: await listAuditLog(context.db, user.id, filter, params), values: raw, error: null as string | null };
    } catch (error) {
      if (error instanceof AppError && (error.status === 400 || error.code === "member_not_found")) {
        return { page: toPage([], 0, params), values: raw, error: error.message };
      }
      throw error;
    }
  });
}

export default function AdminLogPage({ loaderData }: Route.ComponentProps) {
  const { page, values, error } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Журнал действий</h1>
          <p className="mt-1 text-sm text-muted-foreground">Каждое действие модераторов и администраторов. Записи нельзя изменить или удалить.</p>
        </div>
        <p className="text-sm text-muted-foreground">Записей: {formatCount(page.total)}</p>
      </div>
      <Form method="get" className="grid gap-3 rounded-2xl border border-border bg-card p-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="log-filter">
        <label className="grid gap-1 text-sm font-medium">
          Кто действовал
          <Input name="actor" defaultValue={values.actor} maxLength={100} placeholder="Имя пользователя или id" />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          С кем
          <Input name="targetUser" defaultValue={values.targetUser} maxLength={100} placeholder="Имя пользователя или id" />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          Действие
          <select name="action" defaultValue={values.action} className={selectClass}>
            <option value="">Любое</option>
            {(Object.entries(AUDIT_ACTION_LABELS) as [AuditAction, string][]).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm font-medium">
          С (день)
          <Input name="from" type="date" defaultValue={values.from} />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          По (день)
          <Input name="to" type="date" defaultValue={values.to} />
        </label>
        <div className="flex items-end gap-2">
          <Button type="submit">Показать</Button>
          <Button asChild variant="ghost">
            <Link to="/admin/log">Сбросить</Link>
          </Button>
        </div>
      </Form>
      <FormErrors errors={error ? [error] : []} />
      {error ? null : <AuditEntryList entries={page.items} empty="Записей не нашлось." />}
      <Pagination page={page.page} totalPages={page.totalPages} makeHref={(p) => withSearchParam("/admin/log", location.search, "page", p)} />
    </div>
  );
}
