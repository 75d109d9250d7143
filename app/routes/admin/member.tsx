/**
 * /admin/members/:id (moderators and admins; docs/product/moderation.md#admin-pages): one member —
 * roles, sanctions in force and past, sign-in addresses, claims, deals, balances, reports and the
 * latest audit entries — and the forms that act on them, each a plain POST (no JavaScript needed):
 *
 * - block or read-only for a period, until a date (Moscow time) or for good, with a reason
 *   (docs/product/moderation.md#suspension-and-mute); lifting a sanction in force;
 * - granting and revoking ADMIN, MODERATOR and VERIFIED (admins only; docs/product/moderation.md#roles).
 *
 * The domain checks who may do what; a refusal (unknown member, a period in the past, a reason
 * over 1000 characters, an unknown role, a sanction already lifted) answers with its status and a
 * Russian message beside the form, and changes nothing. An unknown member is the 404 page.
 */
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useLocation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/member";
import { AdminSection, selectClass, untilText } from "~/components/admin/admin-ui";
import { AuditEntryList } from "~/components/admin/audit-entry-list";
import { MemberClaims, MemberDeals } from "~/components/admin/member-claims-deals";
import { resultFor, type FormActionData } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { RankBadges } from "~/components/users/rank-badges";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { formatKopecks } from "~/domain/ledger/money";
import { REASON_MAX } from "~/domain/moderation/input";
import { getMemberAdminView } from "~/domain/moderation/members.server";
import { grantRank, revokeRank } from "~/domain/moderation/roles.server";
import { applySanction, liftSanction } from "~/domain/moderation/sanctions.server";
import { LiftSanctionFormSchema, RankFormSchema, SanctionFormSchema, sanctionEndsAt } from "~/domain/moderation/schemas";
import { GRANTABLE_RANKS, RANK_LABELS, SANCTION_LABELS } from "~/domain/moderation/types";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { formatCount, formatDateTime } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { ActiveSanction, SanctionForm, SanctionHistory } from "~/components/admin/member-sanctions";

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, data ? `${data.view.member.username} — администрирование` : "Участник — администрирование");

const ROLE_LABELS = { member: "Участник", moderator: "Модератор", admin: "Администратор" } as const;

function memberIdOf(params: { id?: string }): number {
  return /^\d{1,9}$/.test(params.id ?? "") ? Number(params.id) : 0;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => ({
    view: await getMemberAdminView(context.db, user.id, memberIdOf(params)),
    viewer: { id: user.id, isAdmin: user.role === "admin" },
  }));
}

/** The form's intent, read from a copy of the body (runFormAction reads the body itself). */
async function intentOf(request: Request): Promise<string> {
  try {
    const value = (await request.clone().formData()).get("intent");
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db } = context;
  const memberId = memberIdOf(params);
  const intent = await intentOf(request);
  if (intent === "grant" || intent === "revoke") {
    return runFormAction(context, request, {
      schema: RankFormSchema,
      fieldFor: { unknown_role: "rank", role_unchanged: "rank", role_not_held: "rank", already_admin: "rank" },
      async perform(actor, input) {
        const change = input.intent === "grant" ? grantRank : revokeRank;
        const roles = await change(db, actor.id, memberId, input.rank, { reason: input.reason ?? null });
        return { toast: { title: input.intent === "grant" ? "Роль выдана" : "Роль снята", description: `${roles.username}: ${RANK_LABELS[input.rank]}` } };
      },
    });
  }
  if (intent === "lift") {
    return runFormAction(context, request, {
      schema: LiftSanctionFormSchema,
      async perform(actor, input) {
        const lifted = await liftSanction(db, actor.id, input.sanctionId, { reason: input.reason ?? null });
        return { toast: { title: "Ограничение снято", description: SANCTION_LABELS[lifted.kind] } };
      },
    });
  }
  return runFormAction(context, request, {
    schema: SanctionFormSchema,
    fieldFor: { invalid_period: "until", invalid_reason: "reason", reason_required: "reason" },
    async perform(actor, input) {
      const now = new Date();
      const sanction = await applySanction(
        db,
        actor.id,
        memberId,
        { kind: input.kind, reason: input.reason ?? "", endsAt: sanctionEndsAt(input.period, input.until, now) },
        now,
      );
      return {
        toast: {
          title: sanction.kind === "suspend" ? "Участник заблокирован" : "Участник переведён в «только чтение»",
          description: untilText(sanction.endsAt),
        },
      };
    },
  });
}

export default function AdminMemberPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, viewer } = loaderData;
  const { member } = view;
  const location = useLocation();
  const self = member.id === viewer.id;
  const mayRestrict = !self && member.role !== "admin" && (member.role === "member" || viewer.isAdmin);
  return (
    <div className="grid gap-6" key={location.key}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to="/admin/members" className="text-primary hover:underline">
              ← Участники
            </Link>
          </p>
          <h1 className="flex flex-wrap items-center gap-2 font-heading text-3xl font-extrabold">
            {member.username} <RankBadges ranks={member.ranks} />
          </h1>
          {member.displayName ? <p className="text-muted-foreground">{member.displayName}</p> : null}
        </div>
        <Button asChild variant="outline">
          <Link to={`/profile/${member.id}`}>Открыть профиль</Link>
        </Button>
      </div>

      <div className="grid gap-6 xl:grid-cols-2">
        <AdminSection id="member-summary" title="Сведения">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Роль</dt>
            <dd data-testid="member-role">{ROLE_LABELS[member.role]}</dd>
            <dt className="text-muted-foreground">Email</dt>
            <dd className="break-all">
              {member.email} {member.emailVerified ? "(подтверждён)" : "(не подтверждён)"}
            </dd>
            {member.telegramUsername ? (
              <>
                <dt className="text-muted-foreground">Telegram</dt>
                <dd>@{member.telegramUsername}</dd>
              </>
            ) : null}
            <dt className="text-muted-foreground">С нами с</dt>
            <dd>{formatDateTime(member.createdAt)}</dd>
            <dt className="text-muted-foreground">Был на сайте</dt>
            <dd>{member.lastSeenAt ? formatDateTime(member.lastSeenAt) : "—"}</dd>
            <dt className="text-muted-foreground">Баланс</dt>
            <dd>
              {formatKopecks(view.balances.available)}, на удержании {formatKopecks(view.balances.held)}, депозит {formatKopecks(view.balances.deposit)}
            </dd>
            <dt className="text-muted-foreground">Жалобы на него</dt>
            <dd>
              открытых {formatCount(view.reportsAgainst.open)}, всего {formatCount(view.reportsAgainst.total)}
            </dd>
            <dt className="text-muted-foreground">Претензии</dt>
            <dd>
              против него {formatCount(view.claimsAgainst.total)}, подал {formatCount(view.claimsFiled.total)}
            </dd>
            <dt className="text-muted-foreground">Сделки</dt>
            <dd>{formatCount(view.deals.total)}</dd>
          </dl>
        </AdminSection>

        <AdminSection id="member-active" title="Ограничения сейчас">
          {view.active.suspension || view.active.mute ? (
            <ul className="grid gap-3">
              {[view.active.suspension, view.active.mute].map((sanction) =>
                sanction ? <ActiveSanction key={sanction.id} sanction={sanction} actionData={actionData} /> : null,
              )}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">Нет: участник может входить и публиковать.</p>
          )}
        </AdminSection>
      </div>

      <div className="grid gap-6 xl:grid-cols-2">
        <AdminSection
          id="member-sanction"
          title="Заблокировать или перевести в «только чтение»"
          description="Блокировка сразу завершает все сеансы участника и не даёт войти; при входе он увидит причину и срок. «Только чтение» запрещает публиковать, но не входить."
        >
          {mayRestrict ? (
            <SanctionForm actionData={actionData} />
          ) : (
            <p className="text-sm text-muted-foreground">
              {self
                ? "Ограничить самого себя нельзя."
                : member.role === "admin"
                  ? "Администратора нельзя ограничить: сначала снимите с него роль."
                  : "Ограничить модератора может только администратор."}
            </p>
          )}
        </AdminSection>
        {viewer.isAdmin ? (
          <AdminSection id="member-roles" title="Роли" description="Выдавать и снимать роли может только администратор.">
            <RoleForm actionData={actionData} current={{ ADMIN: member.role === "admin", MODERATOR: member.role === "moderator", VERIFIED: member.verified }} />
          </AdminSection>
        ) : null}
      </div>

      <div className="grid gap-6 xl:grid-cols-2">
        <AdminSection id="member-claims" title="Претензии">
          <MemberClaims against={view.claimsAgainst} filed={view.claimsFiled} />
        </AdminSection>
        <AdminSection id="member-deals" title={`Сделки (${formatCount(view.deals.total)})`}>
          <MemberDeals memberId={member.id} deals={view.deals} />
        </AdminSection>
      </div>

      <AdminSection id="member-sanctions" title="История ограничений">
        <SanctionHistory sanctions={view.sanctions} />
      </AdminSection>

      <AdminSection id="member-audit" title="Действия модераторов">
        <AuditEntryList entries={view.recentActions} empty="Записей в журнале пока нет." />
        <Link to={`/admin/log?targetUser=${encodeURIComponent(member.username)}`} className="text-sm font-medium text-primary hover:underline">
          Весь журнал по участнику →
        </Link>
      </AdminSection>

      <AdminSection id="member-addresses" title="Адреса входа за 30 дней">
        {view.signInAddresses.length === 0 ? (
          <p className="text-sm text-muted-foreground">Входов не было.</p>
        ) : (
          <ul className="grid gap-1 text-sm">
            {view.signInAddresses.map((address) => (
              <li key={address.ip ?? "unknown"}>
                <code>{address.ip ?? "неизвестен"}</code> — {formatCount(address.signIns)} раз, последний {formatDateTime(address.lastAt)}
              </li>
            ))}
          </ul>
        )}
      </AdminSection>
    </div>
  );
}

function RoleForm({ actionData, current }: { actionData: FormActionData | undefined; current: Record<(typeof GRANTABLE_RANKS)[number], boolean> }) {
  const [form, fields] = useForm({
    id: "roles",
    lastResult: resultFor(actionData, "grant") ?? resultFor(actionData, "revoke"),
    constraint: getZodConstraint(RankFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RankFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4" data-testid="role-form">
      <AuthenticityTokenInput />
      <FormErrors id={form.errorId} errors={form.errors} />
      <p className="text-sm">
        Сейчас:{" "}
        {GRANTABLE_RANKS.filter((rank) => current[rank])
          .map((rank) => RANK_LABELS[rank])
          .join(", ") || "без особых ролей"}
      </p>
      <Field label="Роль" id={fields.rank.id} errors={fields.rank.errors}>
        <select {...getSelectProps(fields.rank)} className={selectClass}>
          {GRANTABLE_RANKS.map((rank) => (
            <option key={rank} value={rank}>
              {RANK_LABELS[rank]} ({rank})
            </option>
          ))}
        </select>
      </Field>
      <Field label="Причина (необязательно)" id={fields.reason.id} errors={fields.reason.errors}>
        <Input {...getInputProps(fields.reason, { type: "text" })} maxLength={REASON_MAX} />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="grant">
          Выдать роль
        </Button>
        <Button type="submit" name="intent" value="revoke" variant="outline">
          Снять роль
        </Button>
      </div>
    </Form>
  );
}
