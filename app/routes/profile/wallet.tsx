/**
 * /profile/wallet (sign-in required; issue 5 item 2, docs/product/money.md): the member's balances,
 * a transfer to another member with an optional hold, their holds (outgoing ones released early
 * with «Снять удержание»), the balance log 10 a page, and for admins a top-up through the
 * development payment provider. Every form works without JavaScript and carries an idempotency
 * key made by this loader; app/lib/money-form.server.ts runs the actions. After a 409 (the hold
 * was released meanwhile…) the page reloads its data (app/lib/revalidate.ts).
 */
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/wallet";
import { resultFor } from "~/components/forms/action-data";
import { BalanceCards } from "~/components/wallet/balance-cards";
import { BalanceLog } from "~/components/wallet/balance-log";
import { HoldsSection } from "~/components/wallet/holds-list";
import { WalletActionSchema } from "~/components/wallet/schemas";
import { TopUpForm } from "~/components/wallet/topup-form";
import { TransferForm } from "~/components/wallet/transfer-form";
import { Pagination } from "~/components/ui/pagination";
import { listMemberHolds } from "~/domain/ledger/holds.server";
import { formatKopecks } from "~/domain/ledger/money";
import { getBalances, listBalanceLog, releaseHold, topUp, transferToMember } from "~/domain/ledger/wallet.server";
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
  return { balances, holds, log, isAdmin, keys: { transfer: newIdempotencyKey(), release: newIdempotencyKey(), topup: isAdmin ? newIdempotencyKey() : "" } };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: WalletActionSchema,
    // An unknown member is the name field's fault: show it there.
    fieldFor: { recipient_not_found: "recipient", member_not_found: ["recipient", "member"] },
    async perform(actor, input) {
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
      if (input.intent === "release") {
        const released = await releaseHold(context.db, actor.id, input.holdId, input.key);
        return { toast: { title: `Удержание снято: ${formatKopecks(released.amount)} зачислены получателю` } };
      }
      const member = await findUserByLogin(context.db, input.member);
      if (!member) throw new NotFound("Участник не найден", "member_not_found");
      const done = await topUp(context.db, actor.id, member.id, input.amount, input.key);
      return { toast: { title: `Баланс ${member.username} пополнен на ${formatKopecks(done.amount)}` } };
    },
  });
}

export default function WalletPage({ loaderData, actionData }: Route.ComponentProps) {
  const { balances, holds, log, isAdmin, keys } = loaderData;
  const location = useLocation();
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

      <BalanceCards balances={balances} />

      <div className="grid items-start gap-6 lg:grid-cols-2">
        <section className="grid content-start gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm" aria-labelledby="transfer-title">
          <h2 id="transfer-title" className="font-heading text-xl font-bold">
            Перевести участнику
          </h2>
          <TransferForm key={keys.transfer} formKey={keys.transfer} lastResult={resultFor(actionData, "transfer")} />
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
              <TopUpForm key={keys.topup} formKey={keys.topup} lastResult={resultFor(actionData, "topup")} />
            </section>
          ) : null}
          <HoldsSection holds={holds} releaseKey={keys.release} releaseResult={resultFor(actionData, "release")} />
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
