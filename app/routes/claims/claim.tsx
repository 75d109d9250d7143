/**
 * /claims/{id} (docs/product/claims.md#who-sees-a-claim): one claim — parties with avatars, amount, the
 * description, evidence as safe external links, the deal and the decision. Upheld claims are
 * public (the blacklist links here); others only for the parties and moderators (404 for anyone
 * else; a signed-out visitor is sent to sign in first and comes back here, since the claimant or
 * the accused may simply not be signed in). The deal link shows only to those who may open the
 * deal (the parties and moderators). A moderator who is not a party decides an open claim here:
 * the form carries an idempotency key made by the loader, so a resubmitted decision replays
 * instead of paying twice; upholding with compensation is confirmed on a second step with the
 * claimant's trust card and the deposit after (docs/product/interface.md#money-confirmations); if
 * another moderator decided first (409) the page reloads and shows that decision beside the refusal.
 */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/claim";
import { ClaimParty } from "~/components/claims/claim-party";
import { ClaimStatusBadge } from "~/components/claims/claim-status-badge";
import { ClaimDecisionConfirm, type ClaimConfirmData } from "~/components/claims/decision-confirm";
import { DecisionForm, decisionDefaults } from "~/components/claims/decision-form";
import { EvidenceLinks } from "~/components/claims/evidence-links";
import { DecideClaimPageSchema } from "~/components/claims/schemas";
import { FormErrors } from "~/components/forms/form-errors";
import { decideClaim, getClaim, isModerator } from "~/domain/claims/claims.server";
import { previewClaimDecision } from "~/domain/claims/decision-preview.server";
import { getTrustCard } from "~/domain/users/trust-card.server";
import { getBalances } from "~/domain/ledger/balances.server";
import { formatKopecks } from "~/domain/ledger/money";
import { getOptionalUser } from "~/lib/auth.server";
import { AppError, pageData } from "~/lib/errors";
import { formatDateTime } from "~/lib/format";
import { newIdempotencyKey } from "~/lib/idempotency";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { revalidateAfterConflict } from "~/lib/revalidate";
import { redirectToLogin } from "~/lib/session.server";

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  pageMeta(matches, loaderData ? `Претензия №${loaderData.claim.id}` : "Претензия не найдена");
export const shouldRevalidate = revalidateAfterConflict;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const viewer = await getOptionalUser(context, request);
  const found = await pageData(async () => {
    try {
      return await getClaim(context.db, viewer?.id ?? null, Number(params.id));
    } catch (error) {
      // Not public: maybe the visitor's own claim, so sign in first (and come back here).
      if (!viewer && error instanceof AppError && error.status === 404) redirectToLogin(request);
      throw error;
    }
  });
  const party = viewer !== null && (viewer.id === found.claimant.id || viewer.id === found.accused.id);
  const canDecide = found.status === "open" && isModerator(viewer) && !party;
  // The deal page is for its parties (the claim's) and moderators: nobody else gets the link.
  const claim = party || isModerator(viewer) ? found : { ...found, dealId: null };
  return {
    claim,
    decision: canDecide ? { key: newIdempotencyKey(), deposit: (await getBalances(context.db, claim.accused.id)).deposit } : null,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: DecideClaimPageSchema,
    async perform(moderator, { key, confirmed, ...input }) {
      if (input.decision === "uphold" && input.compensation && !confirmed) {
        // The confirmation step (docs/product/interface.md#money-confirmations): the claimant's card, the deposit after; nothing moved.
        const preview = await previewClaimDecision(context.db, moderator.id, Number(params.id), input);
        return { show: { claimPreview: { ...preview, card: await getTrustCard(context.db, preview.claimant.id) }, key } };
      }
      const claim = await decideClaim(context.db, moderator.id, Number(params.id), input, key);
      return { redirectTo: `/claims/${claim.id}`, toast: { title: claim.status === "upheld" ? "Претензия удовлетворена" : "Претензия отклонена" } };
    },
  });
}

export default function ClaimPage({ loaderData, actionData }: Route.ComponentProps) {
  const { claim, decision } = loaderData;
  const location = useLocation();
  const confirm = actionData && "claimPreview" in actionData ? (actionData as unknown as ClaimConfirmData) : null;
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="font-heading text-3xl font-extrabold">Претензия №{claim.id}</h1>
        <ClaimStatusBadge status={claim.status} />
      </div>
      <section className="grid gap-4 rounded-2xl border border-border bg-card p-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <ClaimParty member={claim.claimant} size="base" label="Заявитель" />
          <ClaimParty member={claim.accused} size="base" label="На кого" />
        </div>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted-foreground">Сумма ущерба</dt>
          <dd className="font-semibold tabular-nums" data-testid="claim-amount">
            {formatKopecks(claim.amount)}
          </dd>
          <dt className="text-muted-foreground">Подана</dt>
          <dd>{formatDateTime(claim.createdAt)}</dd>
          {claim.dealId !== null ? (
            <>
              <dt className="text-muted-foreground">Сделка</dt>
              <dd>
                <Link to={`/services/guarantor/deals/${claim.dealId}`} className="text-primary hover:underline">
                  Сделка №{claim.dealId}
                </Link>
              </dd>
            </>
          ) : null}
        </dl>
        <div>
          <h2 className="mb-1 font-semibold">Что произошло</h2>
          <p className="whitespace-pre-line break-words" data-testid="claim-description">
            {claim.description}
          </p>
        </div>
        <div>
          <h2 className="mb-1 font-semibold">Доказательства</h2>
          <EvidenceLinks links={claim.evidence} />
        </div>
      </section>
      {claim.status !== "open" && actionData ? <FormErrors errors={actionData.result.error?.[""]} /> : null}
      {claim.status !== "open" ? (
        <section className="grid gap-2 rounded-2xl border border-border bg-card p-6" data-testid="claim-decision">
          <h2 className="font-heading text-xl font-bold">{claim.status === "upheld" ? "Претензия удовлетворена" : "Претензия отклонена"}</h2>
          <p className="whitespace-pre-line break-words">{claim.decisionNote}</p>
          <p className="text-sm text-muted-foreground">
            {claim.decidedBy ? `Модератор ${claim.decidedBy.username}, ` : null}
            {claim.decidedAt ? formatDateTime(claim.decidedAt) : null}
          </p>
          {claim.compensation !== null ? <p className="text-sm">Возмещено из депозита: {formatKopecks(claim.compensation)}</p> : null}
        </section>
      ) : confirm ? (
        <ClaimDecisionConfirm preview={confirm.claimPreview} formKey={confirm.key} />
      ) : decision ? (
        <DecisionForm
          key={location.search}
          claimId={claim.id}
          idempotencyKey={decision.key}
          amount={claim.amount}
          deposit={decision.deposit}
          lastResult={actionData?.result}
          defaultValue={decisionDefaults(new URLSearchParams(location.search))}
        />
      ) : (
        <p className="rounded-xl border border-dashed border-border p-4 text-muted-foreground">Претензия на рассмотрении у модератора.</p>
      )}
    </div>
  );
}
