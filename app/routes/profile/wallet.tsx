/**
 * /profile/wallet (sign-in required; issue 5 item 2, docs/product/money.md): the member's balances,
 * a transfer to another member with an optional hold (two steps: «Продолжить» checks it and shows
 * the recipient's trust card, the amount, the fee and the balance after; «Подтвердить» moves the
 * money with the same idempotency key; «Изменить» comes back here with the values in the query —
 * docs/product/interface.md#money-confirmations), their holds (outgoing ones released early
 * with «Снять удержание», confirmed on a second step like the transfer), the balance log 10 a page,
 * and for admins a top-up through the development payment provider (confirmed on a second step with
 * the member's trust card and their balance after). An empty wallet (nothing
 * available or held) explains how money gets in and offers to write to an admin
 * (docs/product/money.md#how-money-gets-in). Every form works without JavaScript and carries an idempotency
 * key made by this loader; app/routes/_shared/money-form.server.ts runs the actions. After a 409 (the hold
 * was released meanwhile…) the page reloads its data (app/lib/revalidate.ts).
 */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/wallet";
import { resultFor } from "~/components/forms/action-data";
import { BalanceCards } from "~/components/wallet/balance-cards";
import { BalanceLog } from "~/components/wallet/balance-log";
import { HoldReleaseConfirm, HoldsSection, type HoldReleaseConfirmData } from "~/components/wallet/holds-list";
import { WalletActionSchema } from "~/components/wallet/schemas";
import { TopUpConfirm, TopUpForm, topUpDefaults, type TopUpConfirmData } from "~/components/wallet/topup-form";
import { TopUpHelp } from "~/components/wallet/topup-help";
import { TransferConfirm, TransferForm, transferDefaults, type TransferConfirmData } from "~/components/wallet/transfer-form";
import { Pagination } from "~/components/ui/pagination";
import { listMemberHolds, previewHoldRelease } from "~/domain/ledger/holds.server";
import { formatKopecks } from "~/domain/ledger/money";
import { findTopUpAdmin } from "~/domain/ledger/topup-contact.server";
import { previewTopUp } from "~/domain/ledger/topup-preview.server";
import { previewTransfer, releaseHold, topUp, transferToMember } from "~/domain/ledger/wallet.server";
import { getBalances, listBalanceLog } from "~/domain/ledger/balances.server";
import { getTrustCard } from "~/domain/users/trust-card.server";
import { findUserByLogin } from "~/domain/users/users.server";
import { requireUser } from "~/lib/auth.server";
import { NotFound } from "~/lib/errors";
import { newIdempotencyKey } from "~/lib/idempotency";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { parsePageParams } from "~/lib/pagination";
import { revalidateAfterConflict } from "~/lib/revalidate";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Кошелёк");
export const shouldRevalidate = revalidateAfterConflict;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const [balances, holds, log] = await Promise.all([
    getBalances(context.db, user.id),
    listMemberHolds(context.db, user.id),
    listBalanceLog(context.db, user.id, parsePageParams(new URL(request.url).searchParams)),
  ]);
  const isAdmin = user.role === "admin";
  // An empty wallet says how money gets in (docs/product/money.md#how-money-gets-in) and whom to ask.
  const empty = !isAdmin && balances.available === 0 && balances.held === 0;
  const topUpAdmin = empty ? await findTopUpAdmin(context.db, user.id) : null;
  return {
    balances,
    holds,
    log,
    isAdmin,
    empty,
    topUpAdmin,
    keys: { transfer: newIdempotencyKey(), release: newIdempotencyKey(), topup: isAdmin ? newIdempotencyKey() : "" },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: WalletActionSchema,
    // An unknown member is the name field's fault: show it there.
    fieldFor: { recipient_not_found: "recipient", member_not_found: ["recipient", "member"] },
    async perform(actor, input) {
      if (input.intent === "transfer" && !input.confirmed) {
        // The confirmation step (docs/product/interface.md#money-confirmations): everything checked, nothing moved.
        const preview = await previewTransfer(context.db, actor.id, input.recipient, input.amount, { holdHours: input.holdHours ?? null, memo: input.memo });
        const card = await getTrustCard(context.db, preview.recipient.id);
        return { show: { transferPreview: { ...preview, card }, key: input.key } };
      }
      if (input.intent === "transfer") {
        const sent = await transferToMember(
          context.db,
          actor.id,
          input.recipient,
          input.amount,
          { holdHours: input.holdHours ?? null, memo: input.memo },
          input.key,
        );
        return {
          toast: {
            title: `Переведено ${formatKopecks(sent.amount)} участнику ${sent.recipient.username}`,
            description: sent.holdId ? "Деньги на удержании у получателя" : undefined,
          },
        };
      }
      if (input.intent === "release" && !input.confirmed) {
        // The confirmation step of an early release: the recipient's card, the amount; nothing moved.
        const preview = await previewHoldRelease(context.db, actor.id, input.holdId);
        const card = await getTrustCard(context.db, preview.recipient.id);
        return { show: { releasePreview: { ...preview, card }, key: input.key } };
      }
      if (input.intent === "release") {
        const released = await releaseHold(context.db, actor.id, input.holdId, input.key);
        return { toast: { title: `Удержание снято: ${formatKopecks(released.amount)} зачислены получателю` } };
      }
      const member = await findUserByLogin(context.db, input.member);
      if (!member) throw new NotFound("Участник не найден", "member_not_found");
      if (!input.confirmed) {
        // The confirmation step of a top-up: the member's card, their balance after; nothing collected.
        const preview = await previewTopUp(context.db, actor.id, member.id, input.amount);
        return { show: { topUpPreview: { ...preview, card: await getTrustCard(context.db, member.id) }, key: input.key } };
      }
      const done = await topUp(context.db, actor.id, member.id, input.amount, input.key);
      return { toast: { title: `Баланс ${member.username} пополнен на ${formatKopecks(done.amount)}` } };
    },
  });
}

export default function WalletPage({ loaderData, actionData }: Route.ComponentProps) {
  const { balances, holds, log, isAdmin, empty, topUpAdmin, keys } = loaderData;
  const location = useLocation();
  const confirm = actionData && "transferPreview" in actionData ? (actionData as unknown as TransferConfirmData) : null;
  const confirmRelease = actionData && "releasePreview" in actionData ? (actionData as unknown as HoldReleaseConfirmData) : null;
  const confirmTopUp = actionData && "topUpPreview" in actionData ? (actionData as unknown as TopUpConfirmData) : null;
  return (
    <div className="grid gap-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Кошелёк</h1>
          <p className="mt-1 text-muted-foreground">Баланс, переводы участникам и история операций</p>
        </div>
        <Link to="/profile/deposit" className="text-sm font-medium text-primary hover:underline">
          Депозит →
        </Link>
      </div>

      <div className="grid gap-6">
        <BalanceCards balances={balances} />
        {/* On a phone the three cards fill the first screen: the explanation comes first there. */}
        {empty ? <TopUpHelp admin={topUpAdmin} className="max-sm:order-first" /> : null}
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-2">
        <section className="grid content-start gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm" aria-labelledby="transfer-title">
          <h2 id="transfer-title" className="font-heading text-xl font-bold">
            Перевести участнику
          </h2>
          {confirm ? (
            <TransferConfirm preview={confirm.transferPreview} formKey={confirm.key} />
          ) : (
            <TransferForm
              key={`${keys.transfer}${location.search}`}
              formKey={keys.transfer}
              lastResult={resultFor(actionData, "transfer")}
              defaultValue={transferDefaults(new URLSearchParams(location.search))}
            />
          )}
        </section>
        <div className="grid content-start gap-6">
          {isAdmin ? (
            <section
              className="grid content-start gap-4 rounded-2xl border border-dashed border-primary/40 bg-card p-6 shadow-sm"
              aria-labelledby="topup-title"
            >
              <div>
                <h2 id="topup-title" className="font-heading text-xl font-bold">
                  Пополнить баланс участника
                </h2>
                <p className="text-sm text-muted-foreground">Для администраторов: тестовый платёжный провайдер зачисляет сумму сразу.</p>
              </div>
              {confirmTopUp ? (
                <TopUpConfirm preview={confirmTopUp.topUpPreview} formKey={confirmTopUp.key} />
              ) : (
                <TopUpForm
                  key={`${keys.topup}${location.search}`}
                  formKey={keys.topup}
                  lastResult={resultFor(actionData, "topup")}
                  defaultValue={topUpDefaults(new URLSearchParams(location.search))}
                />
              )}
            </section>
          ) : null}
          {confirmRelease ? (
            <HoldReleaseConfirm preview={confirmRelease.releasePreview} formKey={confirmRelease.key} />
          ) : (
            <HoldsSection holds={holds} releaseKey={keys.release} releaseResult={resultFor(actionData, "release")} />
          )}
        </div>
      </div>

      <section className="grid gap-4" aria-labelledby="log-title">
        <h2 id="log-title" className="font-heading text-xl font-bold">
          История операций
        </h2>
        <BalanceLog entries={log.items} />
        <Pagination page={log.page} totalPages={log.totalPages} makeHref={(p) => withSearchParam(location.pathname, location.search, "page", p)} />
      </section>
    </div>
  );
}
