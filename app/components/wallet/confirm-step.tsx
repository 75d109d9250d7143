/**
 * The confirmation step of a money move (docs/product/interface.md#money-confirmations; a second
 * page without JavaScript): who gets the money as their trust card (when someone does), what
 * moves — amount, fee, balance after — and two ways on: «Подтвердить» posts the same values with
 * `confirmed=1` and the same idempotency key (a double click pays once), «Изменить» goes back to
 * the form with the typed values kept in the query string. Used by /profile/wallet (hold
 * releases), /profile/deposit and the deal page; the transfer has its own (TransferConfirm).
 */
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button } from "~/components/ui/button";
import { TrustCard } from "~/components/users/trust-card-body";
import type { TrustCardDto } from "~/domain/users/trust-card.server";

/** One line of the figures: a label and its value; `testId` marks the ones journeys read. */
export interface ConfirmRow {
  label: string;
  value: React.ReactNode;
  testId?: string;
}

/** Kopecks as the amount fields accept them back: «1234,50». */
export function roublesValue(kopecks: number): string {
  return `${Math.floor(kopecks / 100)},${String(kopecks % 100).padStart(2, "0")}`;
}

export function ConfirmStep({
  title,
  testId,
  party,
  rows,
  intent,
  formKey,
  fields = {},
  action,
  backTo,
  note,
}: {
  title: string;
  testId: string;
  /** Who receives the money or is the counterparty, with the label above their card. */
  party?: { label: string; card: TrustCardDto };
  rows: ConfirmRow[];
  /** The form's intent, posted again with `confirmed=1`. */
  intent: string;
  /** The idempotency key the first step was posted with. */
  formKey: string;
  /** The values posted again (hidden fields). */
  fields?: Record<string, string>;
  /** Where the form posts; the current page when absent. */
  action?: string;
  /** «Изменить»: the form's page with the typed values in the query. */
  backTo: string;
  /** A sentence under the figures (when the money arrives, what stays unchanged). */
  note?: React.ReactNode;
}) {
  const submitting = useSubmitting({ intent });
  return (
    <div className="grid gap-4" data-testid={testId}>
      <p className="font-medium">{title}</p>
      {party ? (
        <div className="rounded-xl border border-border p-4" data-testid="confirm-party">
          <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">{party.label}</p>
          <TrustCard member={party.card} card={party.card} />
        </div>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        {rows.map((row) => (
          <div key={row.label} className="contents">
            <dt className="text-muted-foreground">{row.label}</dt>
            <dd className="tabular-nums" data-testid={row.testId}>
              {row.value}
            </dd>
          </div>
        ))}
      </dl>
      {note ? <p className="text-sm text-muted-foreground">{note}</p> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Form method="post" action={action}>
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="confirmed" value="1" />
          <IdempotencyKeyInput value={formKey} />
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <Button type="submit" disabled={submitting}>
            {submitting ? "Выполняется…" : "Подтвердить"}
          </Button>
        </Form>
        <Button asChild variant="outline">
          <Link to={backTo}>Изменить</Link>
        </Button>
      </div>
    </div>
  );
}
