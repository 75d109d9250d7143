/**
 * The decision part of a card in the moderation queue (/admin/reports; docs/product/moderation.md#reports):
 * the reported member's sanctions in force, and one form whose buttons are the outcomes — dismiss,
 * delete the item, or suspend or mute its author (or the profile's member) with a reason and a
 * period, deleting the item too unless «Оставить материал» is ticked. A native form: it works
 * without JavaScript; a refusal comes back as `lastResult` and shows beside its field.
 */
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Ban, Check, MessageSquareOff, ShieldBan, Trash2 } from "lucide-react";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { SanctionBadges, SanctionPeriodField, SanctionUntilField } from "~/components/admin/admin-ui";
import type { FormActionData } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { ResolveReportsFormSchema } from "~/domain/moderation/schemas";
import type { ActiveSanctions, ReportGroupDto } from "~/domain/moderation/types";

/** The form of one card: its `intent` names the item, so a refusal shows in that card. */
export const reportGroupKey = (group: { targetType: string; targetId: number }) => `${group.targetType}:${group.targetId}`;

/** «Заблокирован до …» / «Только чтение навсегда», or «Ограничений нет», for the reported member. */
export function ReportedMemberSanctions({ sanctions, profile }: { sanctions: ActiveSanctions; profile: boolean }) {
  const { suspension, mute } = sanctions;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2 text-sm" data-testid="report-member-sanctions">
      <span className="text-muted-foreground">{profile ? "Ограничения участника:" : "Ограничения автора:"}</span>
      {suspension || mute ? (
        <SanctionBadges
          suspendedUntil={suspension?.endsAt ?? null}
          suspendedForever={suspension !== null && suspension.endsAt === null}
          mutedUntil={mute?.endsAt ?? null}
          mutedForever={mute !== null && mute.endsAt === null}
        />
      ) : (
        <span>нет</span>
      )}
    </p>
  );
}

export function ReportDecisionForm({ group, lastResult }: { group: ReportGroupDto; lastResult: FormActionData["result"] | undefined }) {
  const key = reportGroupKey(group);
  const profile = group.targetType === "profile";
  const submitting = useSubmitting({ action: "/admin/reports" });
  const [form, fields] = useForm({
    id: `resolve-${key}`,
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: { period: "7d" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResolveReportsFormSchema }),
  });
  const whom = profile ? "участника" : "автора";
  return (
    <Form method="post" action="/admin/reports" className="mt-4 grid gap-3 border-t border-border pt-4" {...getFormProps(form)}>
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value={key} />
      <input type="hidden" name="targetType" value={group.targetType} />
      <input type="hidden" name="targetId" value={group.targetId} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="Комментарий модератора или причина ограничения"
        id={fields.reason.id}
        errors={fields.reason.errors}
        description={`Сохранится в журнале. Для блокировки и «только чтения» обязательно: причину увидит ${profile ? "участник" : "автор"}.`}
      >
        <Textarea {...getTextareaProps(fields.reason)} rows={2} />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="outcome" value="dismiss" variant="outline" disabled={submitting}>
          <Check aria-hidden /> Отклонить жалобы
        </Button>
        {profile ? null : group.state !== "deleted" && group.state !== "gone" ? (
          <Button type="submit" name="outcome" value="delete" variant="destructive" disabled={submitting}>
            <Trash2 aria-hidden /> Удалить {group.targetLabel.toLowerCase()}
          </Button>
        ) : (
          <Button type="submit" name="outcome" value="delete" variant="outline" disabled={submitting}>
            <Trash2 aria-hidden /> Закрыть: уже удалено
          </Button>
        )}
      </div>
      <fieldset className="grid gap-3 rounded-lg border border-border p-3" data-testid="report-sanction">
        <legend className="px-1 text-sm font-semibold">Ограничить {whom}</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <SanctionPeriodField field={fields.period} />
          <SanctionUntilField field={fields.until} />
        </div>
        {profile ? null : (
          <label className="flex items-center gap-2 text-sm">
            <input {...getInputProps(fields.keepItem, { type: "checkbox" })} className="size-4" />
            Оставить материал (не удалять вместе с ограничением)
          </label>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="outcome" value="suspend" variant="destructive" disabled={submitting}>
            <Ban aria-hidden /> Заблокировать {whom}
          </Button>
          <Button type="submit" name="outcome" value="mute" variant="outline" disabled={submitting}>
            <MessageSquareOff aria-hidden /> Только чтение
          </Button>
          <Button asChild variant="ghost">
            <Link to={`/admin/members/${group.targetUser.id}`}>
              <ShieldBan aria-hidden /> Страница {whom}
            </Link>
          </Button>
        </div>
      </fieldset>
    </Form>
  );
}
