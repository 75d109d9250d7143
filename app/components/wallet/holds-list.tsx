/**
 * Held transfers on the wallet page (docs/product/money.md#holds, LOLZTEAM-style): the member's
 * outgoing holds, each with «Снять удержание» (early release, its own form and idempotency
 * key, confirmed on a second step: HoldReleaseConfirm), and the incoming ones with the date they
 * release by themselves.
 */
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { messagesOf } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button } from "~/components/ui/button";
import { isScammer, MemberAvatar, MemberName } from "~/components/users/trust-card";
import type { HoldDto, HoldReleasePreview, MemberHolds } from "~/domain/ledger/holds.server";
import { formatKopecks } from "~/domain/ledger/money";
import type { TrustCardDto } from "~/domain/users/trust-card.server";
import { formatDateTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import { ConfirmStep } from "./confirm-step";

/**
 * `releaseResult` is the action's reply to the last refused «Снять удержание»: its messages show
 * beside the hold it was for, or above the list when that hold is gone (released meanwhile).
 */
export function HoldsSection({ holds, releaseKey, releaseResult }: { holds: MemberHolds; releaseKey: string; releaseResult?: SubmissionResult<string[]> }) {
  const submitting = useSubmitting({ intent: "release" });
  const releaseErrors = messagesOf(releaseResult);
  const refusedId = Number((releaseResult?.initialValue as Record<string, unknown> | null | undefined)?.holdId);
  const refusedShown = holds.outgoing.some((hold) => hold.id === refusedId);
  return (
    <section className="grid content-start gap-6" aria-label="Переводы с удержанием">
      <div className="grid content-start gap-3" data-testid="outgoing-holds">
        <h2 className="font-heading text-lg font-bold">Вы отправили с удержанием</h2>
        {refusedShown ? null : <FormErrors errors={releaseErrors} />}
        {holds.outgoing.length === 0 ? (
          <p className="text-sm text-muted-foreground">Нет переводов, ожидающих снятия удержания.</p>
        ) : (
          <ul className="grid gap-2">
            {holds.outgoing.map((hold) => (
              <HoldRow key={hold.id} hold={hold} direction="outgoing">
                <Form method="post" className="grid justify-items-end gap-2">
                  <AuthenticityTokenInput />
                  <input type="hidden" name="intent" value="release" />
                  <IdempotencyKeyInput value={`${releaseKey}-${hold.id}`} />
                  <input type="hidden" name="holdId" value={hold.id} />
                  <Button
                    type="submit"
                    size="sm"
                    variant="outline"
                    disabled={submitting}
                    aria-label={`Снять удержание: ${formatKopecks(hold.amount)} для ${hold.counterparty.username}`}
                  >
                    Снять удержание
                  </Button>
                  {hold.id === refusedId ? <FormErrors errors={releaseErrors} /> : null}
                </Form>
              </HoldRow>
            ))}
          </ul>
        )}
        <MoreHidden shown={holds.outgoing.length} total={holds.outgoingTotal} />
      </div>
      <div className="grid content-start gap-3" data-testid="incoming-holds">
        <h2 className="font-heading text-lg font-bold">Вам отправили с удержанием</h2>
        {holds.incoming.length === 0 ? (
          <p className="text-sm text-muted-foreground">Входящих переводов на удержании нет.</p>
        ) : (
          <ul className="grid gap-2">
            {holds.incoming.map((hold) => (
              <HoldRow key={hold.id} hold={hold} direction="incoming" />
            ))}
          </ul>
        )}
        <MoreHidden shown={holds.incoming.length} total={holds.incomingTotal} />
      </div>
    </section>
  );
}

function HoldRow({ hold, direction, children }: { hold: HoldDto; direction: "outgoing" | "incoming"; children?: React.ReactNode }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-card p-3 shadow-xs" data-testid="hold">
      <div className="flex min-w-0 items-start gap-3">
        <MemberAvatar member={hold.counterparty} />
        <div className="min-w-0">
          <p className="font-semibold tabular-nums">
            {formatKopecks(hold.amount)}{" "}
            <span className="font-normal text-muted-foreground">
              {direction === "outgoing" ? "для " : "от "}
              <MemberName member={hold.counterparty} className={cn("font-normal", !isScammer(hold.counterparty) && "text-primary")} />
            </span>
          </p>
          <p className="text-xs text-muted-foreground">Удержание до {formatDateTime(hold.releaseAt)}</p>
          {hold.memo ? <p className="mt-1 text-sm break-words">{hold.memo}</p> : null}
        </div>
      </div>
      {children}
    </li>
  );
}

function MoreHidden({ shown, total }: { shown: number; total: number }) {
  if (total <= shown) return null;
  return (
    <p className="text-xs text-muted-foreground">
      Показаны ближайшие {shown} из {total}.
    </p>
  );
}

/** What the wallet action shows on a release's confirmation step: the preview with the recipient's trust card, and the form's idempotency key. */
export interface HoldReleaseConfirmData {
  releasePreview: HoldReleasePreview & { card: TrustCardDto };
  key: string;
}

/**
 * The confirmation step of «Снять удержание» (docs/product/interface.md#money-confirmations): the
 * recipient's trust card, the amount that reaches their available balance now, no fee, and the
 * sender's balance, which stays as it is (the money left it when the hold was sent).
 */
export function HoldReleaseConfirm({ preview, formKey }: { preview: HoldReleaseConfirmData["releasePreview"]; formKey: string }) {
  return (
    <section className="grid content-start gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm" aria-labelledby="release-confirm-title">
      <h2 id="release-confirm-title" className="font-heading text-xl font-bold">
        Снять удержание
      </h2>
      <ConfirmStep
        title="Проверьте, кому уйдут деньги"
        testId="release-confirm"
        party={{ label: "Получатель", card: preview.card }}
        rows={[
          { label: "Сумма", value: formatKopecks(preview.amount), testId: "confirm-amount" },
          { label: "Комиссия", value: preview.fee > 0 ? formatKopecks(preview.fee) : "нет" },
          ...(preview.memo ? [{ label: "Комментарий", value: preview.memo }] : []),
          { label: "Удержание до", value: formatDateTime(preview.releaseAt) },
          { label: "Останется на балансе", value: formatKopecks(preview.balanceAfter), testId: "confirm-balance-after" },
        ]}
        note="Деньги сразу станут доступны получателю; вернуть их будет нельзя. Ваш баланс не изменится: сумма списана при отправке перевода."
        intent="release"
        formKey={formKey}
        fields={{ holdId: String(preview.holdId) }}
        backTo="/profile/wallet"
      />
    </section>
  );
}
