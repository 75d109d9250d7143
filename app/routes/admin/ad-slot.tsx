/**
 * /admin/ads/slots/new and /admin/ads/slots/{id} (admins; docs/product/pages.md#ads): the form of an
 * advertising slot — name, placement (a feed slot also says after how many posts it shows), price per
 * day in roubles, how many ads may run at once, and whether it is on sale. Saving goes back to
 * /admin/ads with a toast; bad input stays in the form with the Russian message beside its field.
 * A visitor is sent to sign in; anyone but an admin gets 403. Works without JavaScript.
 */
import { getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/ad-slot";
import { resultFor } from "~/components/forms/action-data";
import { SettingsForm, SettingsSection } from "~/components/settings/settings-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { AdSlotFormSchema } from "~/domain/ads/schemas";
import { getAdSlotForAdmin, listAdSlotsForAdmin, saveAdSlot } from "~/domain/ads/slots.server";
import { AD_FEED_POSITION_MAX, AD_PLACEMENT_LABELS, AD_SLOT_CAPACITY_MAX, AD_SLOT_NAME_MAX, type AdPlacement } from "~/domain/ads/types";
import { kopecksToInput } from "~/domain/ledger/money";
import { requireUser } from "~/lib/auth.server";
import { NotFound, pageData } from "~/lib/errors";
import { formatCount } from "~/lib/format";
import { isValidId } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";

export const meta: Route.MetaFunction = ({ matches, data }) => pageMeta(matches, data?.slot ? `Место «${data.slot.name}»` : "Новое место для рекламы");

/** The slot id of the URL, or null on /new; an id that cannot exist is 404 like an unknown one. */
function slotIdOf(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  const id = Number(params.id);
  if (!isValidId(id)) throw new NotFound("Такого места для рекламы нет", "ad_slot_not_found");
  return id;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    const slotId = slotIdOf(params);
    // The list checks the admin role even on /new, where there is no slot to read.
    const slot = slotId === null ? (await listAdSlotsForAdmin(context.db, user), null) : await getAdSlotForAdmin(context.db, user, slotId);
    return { slot };
  });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: AdSlotFormSchema,
    async perform(actor, input) {
      const saved = await saveAdSlot(context.db, actor, slotIdOf(params), input);
      return {
        toast: {
          title: saved.created ? `Место «${input.name}» добавлено` : `Место «${input.name}» сохранено`,
          description: input.active ? "Открыто для заявок" : "Снято с продажи",
        },
        redirectTo: "/admin/ads",
      };
    },
  });
}

export default function AdminAdSlotPage({ loaderData, actionData }: Route.ComponentProps) {
  const { slot } = loaderData;
  const [form, fields] = useForm({
    id: "slot-save",
    lastResult: resultFor(actionData, "slot-save"),
    defaultValue: {
      name: slot?.name ?? "",
      placement: slot?.placement ?? "feed",
      feedPosition: slot?.feedPosition === null || slot === null ? "3" : String(slot.feedPosition),
      pricePerDay: slot ? kopecksToInput(slot.pricePerDay) : "",
      capacity: String(slot?.capacity ?? 1),
      active: slot === null || slot.active ? "on" : undefined,
    },
    constraint: getZodConstraint(AdSlotFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdSlotFormSchema }),
  });
  const title = slot ? `Место «${slot.name}»` : "Новое место для рекламы";
  return (
    <div className="grid max-w-3xl gap-6">
      <Link to="/admin/ads" className="text-sm font-medium text-primary hover:underline">
        ← Реклама
      </Link>
      <h1 className="font-heading text-3xl font-extrabold break-words">{title}</h1>
      {slot ? (
        <p className="text-sm text-muted-foreground" data-testid="slot-load">
          Сейчас показывается: {formatCount(slot.running)} из {formatCount(slot.capacity)} · ждут проверки: {formatCount(slot.pending)}. Новая цена действует
          для новых заявок; поданные оплачены по прежней.
        </p>
      ) : null}
      <SettingsSection id="slot" title="Место размещения" description="Заявки подают на странице /ads; цена списывается за каждый день показа.">
        <SettingsForm form={form} intent="slot-save" submitLabel={slot ? "Сохранить" : "Добавить место"}>
          <Field
            label="Название"
            id={fields.name.id}
            errors={fields.name.errors}
            description={`До ${AD_SLOT_NAME_MAX} символов: так место видят рекламодатели`}
          >
            <Input {...getInputProps(fields.name, { type: "text" })} maxLength={AD_SLOT_NAME_MAX} />
          </Field>
          <Field label="Где показывать" id={fields.placement.id} errors={fields.placement.errors}>
            <select
              {...getSelectProps(fields.placement)}
              className="h-11 rounded-md border border-input bg-background px-3 text-sm shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none sm:h-9"
            >
              {(Object.entries(AD_PLACEMENT_LABELS) as [AdPlacement, string][]).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="После скольких постов (для места в ленте)"
            id={fields.feedPosition.id}
            errors={fields.feedPosition.errors}
            description={`От 0 до ${AD_FEED_POSITION_MAX}; для других мест не важно`}
          >
            <Input {...getInputProps(fields.feedPosition, { type: "number" })} min={0} max={AD_FEED_POSITION_MAX} inputMode="numeric" />
          </Field>
          <Field label="Цена за день, ₽" id={fields.pricePerDay.id} errors={fields.pricePerDay.errors} description="Например: 500 или 1 250,50">
            <Input {...getInputProps(fields.pricePerDay, { type: "text" })} inputMode="decimal" />
          </Field>
          <Field label="Объявлений одновременно" id={fields.capacity.id} errors={fields.capacity.errors} description={`От 1 до ${AD_SLOT_CAPACITY_MAX}`}>
            <Input {...getInputProps(fields.capacity, { type: "number" })} min={1} max={AD_SLOT_CAPACITY_MAX} inputMode="numeric" />
          </Field>
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input {...getInputProps(fields.active, { type: "checkbox" })} className="size-4 accent-primary" />
            Открыто для заявок (снятое с продажи место не принимает новые заявки, идущие показы продолжаются)
          </label>
        </SettingsForm>
      </SettingsSection>
    </div>
  );
}
