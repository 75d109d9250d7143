/**
 * /admin/members (moderators and admins; docs/product/moderation.md#admin-pages): members found by
 * part of a username or email, filtered by role, blocked, read-only and SCAMMER, newest first, 20
 * a page. The filter is a GET form, so it works without JavaScript; a bad filter value shows a
 * Russian message above an empty list instead of failing the page.
 */
import { useLocation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import type { Route } from "./+types/members";
import { SanctionBadges, selectClass } from "~/components/admin/admin-ui";
import { RankBadges } from "~/components/users/rank-badges";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import { listMembers } from "~/domain/moderation/members.server";
import { MemberListQuerySchema } from "~/domain/moderation/schemas";
import { AppError, pageData } from "~/lib/errors";
import { requireUser } from "~/lib/auth.server";
import { formatDate, formatCount } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parsePageParams, toPage } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Участники — администрирование");

const PER_PAGE = 20;
const ROLE_LABELS = { member: "Участник", moderator: "Модератор", admin: "Администратор" } as const;
const FLAG_FILTERS = [
  { name: "suspended", label: "Блокировка", yes: "Заблокированы", no: "Не заблокированы" },
  { name: "muted", label: "Только чтение", yes: "Только чтение", no: "Могут писать" },
  { name: "scammer", label: "SCAMMER", yes: "С рангом SCAMMER", no: "Без ранга SCAMMER" },
] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const raw = Object.fromEntries(["q", "role", "suspended", "muted", "scammer"].map((key) => [key, url.searchParams.get(key) ?? undefined]));
  const params = parsePageParams(url.searchParams, { perPage: PER_PAGE });
  const filter = MemberListQuerySchema.parse(raw);
  const values = {
    q: typeof raw.q === "string" ? raw.q.slice(0, 200) : "",
    role: filter.role ?? "",
    suspended: raw.suspended ?? "",
    muted: raw.muted ?? "",
    scammer: raw.scammer ?? "",
  };
  return pageData(async () => {
    try {
      return { page: await listMembers(context.db, user.id, filter, params), values, error: null as string | null };
    } catch (error) {
      // A refused filter (too long, control characters) is a message, not an error page; access refusals still are.
      if (error instanceof AppError && error.status === 400) return { page: toPage([], 0, params), values, error: error.message };
      throw error;
    }
  });
}

export default function AdminMembersPage({ loaderData }: Route.ComponentProps) {
  const { page, values, error } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="font-heading text-3xl font-extrabold">Участники</h1>
        <p className="text-sm text-muted-foreground">Найдено: {formatCount(page.total)}</p>
      </div>
      <Form
        method="get"
        role="search"
        className="grid gap-3 rounded-2xl border border-border bg-card p-4 sm:grid-cols-2 lg:grid-cols-3"
        data-testid="members-filter"
      >
        <label className="grid gap-1 text-sm font-medium sm:col-span-2 lg:col-span-3">
          Имя пользователя или email
          <Input name="q" type="search" defaultValue={values.q} maxLength={100} placeholder="Например: vasya или @mail.ru" />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          Роль
          <select name="role" defaultValue={values.role} className={selectClass}>
            <option value="">Любая</option>
            {Object.entries(ROLE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {FLAG_FILTERS.map((flag) => (
          <label key={flag.name} className="grid gap-1 text-sm font-medium">
            {flag.label}
            <select name={flag.name} defaultValue={values[flag.name]} className={selectClass}>
              <option value="">Все</option>
              <option value="1">{flag.yes}</option>
              <option value="0">{flag.no}</option>
            </select>
          </label>
        ))}
        <div className="flex items-end gap-2">
          <Button type="submit">Найти</Button>
          <Button asChild variant="ghost">
            <Link to="/admin/members">Сбросить</Link>
          </Button>
        </div>
      </Form>
      <FormErrors errors={error ? [error] : []} />
      {page.items.length === 0 && !error ? <p className="text-muted-foreground">Никого не нашлось.</p> : null}
      {page.items.length > 0 ? (
        <div className="overflow-x-auto rounded-2xl border border-border bg-card">
          <table className="w-full text-sm" data-testid="members-table">
            <thead className="border-b border-border text-left text-muted-foreground">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Участник
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Email
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Роль
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Ограничения
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  С нами с
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((member) => (
                <tr key={member.id} className="border-b border-border last:border-0" data-testid="member-row">
                  <td className="px-4 py-2">
                    <span className="flex flex-wrap items-center gap-2">
                      <Link to={`/admin/members/${member.id}`} className="font-medium text-primary hover:underline">
                        {member.username}
                      </Link>
                      <RankBadges ranks={member.ranks} />
                    </span>
                  </td>
                  <td className="px-4 py-2">{member.email}</td>
                  <td className="px-4 py-2">{ROLE_LABELS[member.role]}</td>
                  <td className="px-4 py-2">
                    <SanctionBadges {...member} />
                  </td>
                  <td className="px-4 py-2 whitespace-nowrap">{formatDate(member.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pagination page={page.page} totalPages={page.totalPages} makeHref={(p) => withSearchParam("/admin/members", location.search, "page", p)} />
    </div>
  );
}
