/**
 * The sanctions part of /admin/members/{id} (docs/product/moderation.md#suspension-and-mute): the
 * sanction in force with its lifting form, the form that applies one, and the history.
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { SanctionBadges, SanctionPeriodField, SanctionUntilField, selectClass, untilText } from "~/components/admin/admin-ui";
import { resultFor, type FormActionData } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { REASON_MAX } from "~/domain/moderation/input";
import { LiftSanctionFormSchema, SanctionFormSchema } from "~/domain/moderation/schemas";
import { SANCTION_LABELS, type SanctionDto } from "~/domain/moderation/types";
import { formatDateTime } from "~/lib/format";

export function ActiveSanction({ sanction, actionData }: { sanction: SanctionDto; actionData: FormActionData | undefined }) {
  const errors = resultFor(actionData, "lift")?.error;
  const [form, fields] = useForm({
    id: `lift-${sanction.id}`,
    lastResult: resultFor(actionData, "lift"),
    constraint: getZodConstraint(LiftSanctionFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LiftSanctionFormSchema }),
  });
  return (
    <li className="grid gap-2 rounded-xl border border-border p-3" data-testid="active-sanction">
      <p className="font-medium">
        {SANCTION_LABELS[sanction.kind]} {untilText(sanction.endsAt)}
      </p>
      <p className="text-sm">Причина: {sanction.reason}</p>
      <p className="text-xs text-muted-foreground">
        {sanction.createdBy ? `Назначил ${sanction.createdBy.username}, ` : ""}
        {formatDateTime(sanction.startsAt)}
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-2">
        <AuthenticityTokenInput />
        <input type="hidden" name="intent" value="lift" />
        <input type="hidden" name="sanctionId" value={sanction.id} />
        <FormErrors
          errors={
            errors
              ? Object.values(errors)
                  .flat()
                  .filter((m): m is string => Boolean(m))
              : []
          }
        />
        <label className="grid flex-1 gap-1 text-sm">
          <span className="sr-only">Причина снятия</span>
          <Input {...getInputProps(fields.reason, { type: "text" })} placeholder="Причина снятия (необязательно)" maxLength={REASON_MAX} />
        </label>
        <Button type="submit" variant="outline">
          Снять ограничение
        </Button>
      </Form>
    </li>
  );
}

export function SanctionForm({ actionData }: { actionData: FormActionData | undefined }) {
  const [form, fields] = useForm({
    id: "sanction",
    lastResult: resultFor(actionData, "sanction") ?? resultFor(actionData, ""),
    constraint: getZodConstraint(SanctionFormSchema),
    shouldValidate: "onSubmit",
    defaultValue: { kind: "suspend", period: "1d" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SanctionFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4" data-testid="sanction-form">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="sanction" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Что сделать" id={fields.kind.id} errors={fields.kind.errors}>
          <select {...getSelectProps(fields.kind)} className={selectClass}>
            <option value="suspend">Заблокировать</option>
            <option value="mute">Только чтение</option>
          </select>
        </Field>
        <SanctionPeriodField field={fields.period} />
      </div>
      <SanctionUntilField field={fields.until} />
      <Field label="Причина (её увидит участник)" id={fields.reason.id} errors={fields.reason.errors}>
        <Textarea {...getTextareaProps(fields.reason)} rows={3} />
      </Field>
      <Button type="submit" variant="destructive" className="w-fit">
        Применить
      </Button>
    </Form>
  );
}

export function SanctionHistory({ sanctions }: { sanctions: SanctionDto[] }) {
  if (sanctions.length === 0) return <p className="text-sm text-muted-foreground">Ограничений не было.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="sanction-history">
        <thead className="border-b border-border text-left text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              Вид
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Срок
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Причина
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Назначил
            </th>
            <th scope="col" className="py-2 font-medium">
              Состояние
            </th>
          </tr>
        </thead>
        <tbody>
          {sanctions.map((sanction) => (
            <tr key={sanction.id} className="border-b border-border align-top last:border-0">
              <td className="py-2 pr-4">{SANCTION_LABELS[sanction.kind]}</td>
              <td className="py-2 pr-4">
                с {formatDateTime(sanction.startsAt)} {untilText(sanction.endsAt)}
              </td>
              <td className="py-2 pr-4">{sanction.reason}</td>
              <td className="py-2 pr-4">{sanction.createdBy?.username ?? "—"}</td>
              <td className="py-2">
                {sanction.active ? (
                  <SanctionBadges
                    suspendedUntil={sanction.kind === "suspend" ? (sanction.endsAt ?? null) : null}
                    suspendedForever={sanction.kind === "suspend" && sanction.endsAt === null}
                    mutedUntil={sanction.kind === "mute" ? (sanction.endsAt ?? null) : null}
                    mutedForever={sanction.kind === "mute" && sanction.endsAt === null}
                  />
                ) : sanction.liftedAt ? (
                  `снято ${formatDateTime(sanction.liftedAt)}${sanction.liftedBy ? `, ${sanction.liftedBy.username}` : ""}${sanction.liftReason ? `: ${sanction.liftReason}` : ""}`
                ) : (
                  "закончилось"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
