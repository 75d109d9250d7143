/**
 * /profile/deposit (sign-in required; issue 5 item 3, docs/product/money.md#deposits): the
 * member's public deposit, the form that locks part of the available balance in it, the
 * withdrawal request (returned after 14 days, blocked while a claim against the member is
 * open), the pending withdrawal with «Отменить» (all three confirmed on a second step,
 * docs/product/interface.md#money-confirmations), and the deposit log 10 a page. Forms work
 * without JavaScript and carry idempotency keys made by this loader; app/routes/_shared/money-form.server.ts
 * runs the actions, and a 409 (the withdrawal was closed meanwhile…) reloads the page's data.
 */
import { ShieldCheck } from "lucide-react";
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/deposit";
import { messagesOf, resultFor } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { DepositLog } from "~/components/wallet/balance-log";
import {
  DepositAmountForm,
  DepositConfirm,
  depositDefault,
  PendingWithdrawalCard,
  WithdrawalCancelConfirm,
  WithdrawalConfirm,
  type DepositConfirmData,
} from "~/components/wallet/deposit-forms";
import { DepositActionSchema } from "~/components/wallet/schemas";
import { Pagination } from "~/components/ui/pagination";
import { previewDeposit, previewWithdrawal, previewWithdrawalCancel } from "~/domain/ledger/deposit-preview.server";
import { cancelDepositWithdrawal, depositFunds, getDepositSummary, listDepositLog, requestDepositWithdrawal } from "~/domain/ledger/deposits.server";
import { DEPOSIT_WITHDRAWAL_DAYS } from "~/domain/ledger/deposits";
import { formatKopecks } from "~/domain/ledger/money";
import { getBalances } from "~/domain/ledger/balances.server";
import { requireUser } from "~/lib/auth.server";
import { formatDateTime } from "~/lib/format";
import { newIdempotencyKey } from "~/lib/idempotency";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { parsePageParams } from "~/lib/pagination";
import { revalidateAfterConflict } from "~/lib/revalidate";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Депозит");
export const shouldRevalidate = revalidateAfterConflict;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const [summary, balances, log] = await Promise.all([
    getDepositSummary(context.db, user.id),
    getBalances(context.db, user.id),
    listDepositLog(context.db, user.id, parsePageParams(new URL(request.url).searchParams)),
  ]);
  return {
    summary,
    available: balances.available,
    log,
    userId: user.id,
    keys: { deposit: newIdempotencyKey(), withdraw: newIdempotencyKey(), cancel: newIdempotencyKey() },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: DepositActionSchema,
    async perform(actor, input) {
      // The confirmation steps (docs/product/interface.md#money-confirmations): everything checked, nothing moved.
      if (input.intent === "deposit" && !input.confirmed)
        return { show: { depositPreview: await previewDeposit(context.db, actor.id, input.amount), key: input.key } };
      if (input.intent === "withdraw" && !input.confirmed) {
        return { show: { withdrawalPreview: await previewWithdrawal(context.db, actor.id, input.amount), key: input.key } };
      }
      if (input.intent === "deposit") {
        const done = await depositFunds(context.db, actor.id, input.amount, input.key);
        return { toast: { title: `В депозит внесено ${formatKopecks(done.amount)}`, description: `Депозит: ${formatKopecks(done.deposit)}` } };
      }
      if (input.intent === "withdraw") {
        const pending = await requestDepositWithdrawal(context.db, actor.id, input.amount, input.key);
        return {
          toast: {
            title: `Заявка на вывод ${formatKopecks(pending.amount)} принята`,
            description: `Деньги вернутся на баланс ${formatDateTime(pending.availableAt)}`,
          },
        };
      }
      if (!input.confirmed) {
        return { show: { cancelPreview: await previewWithdrawalCancel(context.db, actor.id, input.withdrawalId), key: input.key } };
      }
      await cancelDepositWithdrawal(context.db, actor.id, input.withdrawalId, input.key);
      return { toast: { title: "Заявка на вывод отменена", description: "Сумма остаётся в депозите" } };
    },
  });
}

export default function DepositPage({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, available, log, userId, keys } = loaderData;
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const confirm =
    actionData && ("depositPreview" in actionData || "withdrawalPreview" in actionData || "cancelPreview" in actionData)
      ? (actionData as unknown as DepositConfirmData)
      : null;
  return (
    <div className="grid gap-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Депозит</h1>
          <p className="mt-1 max-w-2xl text-muted-foreground">
            Страховой депозит виден всем в вашем профиле и в таблице лидеров. Из него может быть выплачена компенсация по признанной претензии. Вывод занимает{" "}
            {DEPOSIT_WITHDRAWAL_DAYS} дней.
          </p>
        </div>
        <Link to="/profile/wallet" className="text-sm font-medium text-primary hover:underline">
          ← Кошелёк
        </Link>
      </div>

      <dl className="grid gap-3 sm:grid-cols-2">
        <div className="rounded-xl border border-border bg-card p-4 shadow-sm" data-testid="deposit-amount">
          <dt className="flex items-center gap-2 text-sm text-muted-foreground">
            <ShieldCheck aria-hidden className="size-4 text-primary" /> Депозит
          </dt>
          <dd className="mt-1 font-heading text-2xl font-extrabold tabular-nums">{formatKopecks(summary.deposit)}</dd>
          <dd className="mt-1 text-xs">
            <Link to={`/profile/${userId}`} className="text-primary hover:underline">
              Как его видят другие
            </Link>
          </dd>
        </div>
        <div className="rounded-xl border border-border bg-card p-4 shadow-sm" data-testid="deposit-available">
          <dt className="text-sm text-muted-foreground">Доступно на балансе</dt>
          <dd className="mt-1 font-heading text-2xl font-extrabold tabular-nums">{formatKopecks(available)}</dd>
        </div>
      </dl>

      <div className="grid gap-6 lg:grid-cols-2">
        <section className="grid content-start gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm" aria-labelledby="deposit-title">
          <h2 id="deposit-title" className="font-heading text-xl font-bold">
            Внести в депозит
          </h2>
          {confirm && "depositPreview" in confirm ? (
            <DepositConfirm preview={confirm.depositPreview} formKey={confirm.key} />
          ) : (
            <DepositAmountForm
              key={`${keys.deposit}${location.search}`}
              intent="deposit"
              formKey={keys.deposit}
              lastResult={resultFor(actionData, "deposit")}
              label="Сумма"
              submitLabel="Внести в депозит"
              description="Сумма спишется с доступного баланса"
              defaultAmount={depositDefault(params, "deposit")}
            />
          )}
        </section>
        <section className="grid content-start gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm" aria-labelledby="withdraw-title">
          <h2 id="withdraw-title" className="font-heading text-xl font-bold">
            Вывести из депозита
          </h2>
          {/* A refused «Отменить» whose withdrawal closed meanwhile (409): the card is gone, the reason stays. */}
          {summary.pending ? null : <FormErrors errors={messagesOf(resultFor(actionData, "cancel"))} />}
          {confirm && "withdrawalPreview" in confirm ? (
            <WithdrawalConfirm preview={confirm.withdrawalPreview} formKey={confirm.key} />
          ) : confirm && "cancelPreview" in confirm ? (
            <WithdrawalCancelConfirm preview={confirm.cancelPreview} formKey={confirm.key} />
          ) : summary.pending ? (
            <PendingWithdrawalCard key={keys.cancel} pending={summary.pending} formKey={keys.cancel} lastResult={resultFor(actionData, "cancel")} />
          ) : (
            <>
              {summary.openClaims > 0 ? (
                <p
                  id="withdrawal-blocked"
                  role="alert"
                  className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive"
                  data-testid="withdrawal-blocked"
                >
                  Против вас открыта претензия: вывод депозита недоступен до решения модератора.
                </p>
              ) : null}
              <DepositAmountForm
                key={`${keys.withdraw}${location.search}`}
                intent="withdraw"
                formKey={keys.withdraw}
                lastResult={resultFor(actionData, "withdraw")}
                label="Сумма к выводу"
                submitLabel="Подать заявку на вывод"
                description={`Деньги вернутся на баланс через ${DEPOSIT_WITHDRAWAL_DAYS} дней; до этого заявку можно отменить`}
                disabledBecause={summary.openClaims > 0 ? "withdrawal-blocked" : undefined}
                defaultAmount={depositDefault(params, "withdraw")}
              />
            </>
          )}
        </section>
      </div>

      <section className="grid gap-4" aria-labelledby="deposit-log-title">
        <h2 id="deposit-log-title" className="font-heading text-xl font-bold">
          История депозита
        </h2>
        <DepositLog entries={log.items} />
        <Pagination page={log.page} totalPages={log.totalPages} makeHref={(p) => withSearchParam(location.pathname, location.search, "page", p)} />
      </section>
    </div>
  );
}
