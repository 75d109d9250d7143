/**
 * Small pieces shared by the admin pages (docs/product/moderation.md#admin-pages): a native
 * select (works without JavaScript), a member's sanction badges, the end of a sanction in words,
 * and a card frame for sections.
 */
import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Badge } from "~/components/ui/badge";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SANCTION_PERIOD_LABELS, SANCTION_PERIODS } from "~/domain/moderation/schemas";
import { formatDateTime } from "~/lib/format";
import { TitledCard } from "~/components/ui/titled-card";
import { cn } from "~/lib/utils";

export const selectClass =
  "h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

/** «до 21 ноября 2026 г. в 14:05» or «навсегда» for an end of null. */
export function untilText(endsAt: string | null): string {
  return endsAt ? `до ${formatDateTime(endsAt)}` : "навсегда";
}

/** Badges of a member's sanctions in force: blocked and read-only, with their ends. */
export function SanctionBadges({
  suspendedUntil,
  suspendedForever,
  mutedUntil,
  mutedForever,
}: {
  suspendedUntil: string | null;
  suspendedForever: boolean;
  mutedUntil: string | null;
  mutedForever: boolean;
}) {
  return (
    <span className="flex flex-wrap gap-1">
      {suspendedForever || suspendedUntil ? (
        <Badge variant="destructive" className="whitespace-normal" title={suspendedForever ? "навсегда" : untilText(suspendedUntil)}>
          Заблокирован {suspendedForever ? "навсегда" : untilText(suspendedUntil)}
        </Badge>
      ) : null}
      {mutedForever || mutedUntil ? (
        <Badge variant="warning" className="whitespace-normal" title={mutedForever ? "навсегда" : untilText(mutedUntil)}>
          Только чтение {mutedForever ? "навсегда" : untilText(mutedUntil)}
        </Badge>
      ) : null}
    </span>
  );
}

/** A titled card of an admin page (data-testid `admin-{id}`). */
export function AdminSection({
  id,
  title,
  description,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <TitledCard id={id} title={title} description={description} className={cn("p-5", className)} testId={`admin-${id}`}>
      {children}
    </TitledCard>
  );
}

/** A sanction's period (SANCTION_PERIODS) as a select, for the member page and the report queue. */
export function SanctionPeriodField({ field }: { field: FieldMetadata<unknown> }) {
  return (
    <Field label="Срок" id={field.id} errors={field.errors}>
      <select {...getSelectProps(field)} className={selectClass}>
        {SANCTION_PERIODS.map((period) => (
          <option key={period} value={period}>
            {SANCTION_PERIOD_LABELS[period]}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The end of a sanction for the period «До даты», in Moscow time. */
export function SanctionUntilField({ field }: { field: FieldMetadata<unknown> }) {
  return (
    <Field label="До (для срока «До даты»), время московское" id={field.id} errors={field.errors}>
      <Input {...getInputProps(field, { type: "datetime-local" })} />
    </Field>
  );
}
