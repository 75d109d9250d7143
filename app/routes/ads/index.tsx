/**
 * /ads (docs/product/pages.md#ads): the slots on sale with their prices, the request form for
 * members (title, text, link, optional picture, slot, days; the price is held from the wallet
 * until an admin decides), and the member's own requests with their state and per-day
 * impressions and clicks. Visitors see the slots and a sign-in link. Works without JavaScript:
 * the form posts multipart to this page's action (app/routes/_shared/money-form.server.ts).
 */
import { getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Megaphone } from "lucide-react";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/index";
import { resultFor } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { useSubmitting } from "~/components/forms/use-submitting";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { AdCard } from "~/components/ads/ad-slot";
import { listMyAds } from "~/domain/ads/ad-listings.server";
import { imageDataBytes, listAdSlots, previewAd, requestAd, type AdPreview } from "~/domain/ads/ads.server";
import { AdPreviewFormSchema, AdsActionSchema } from "~/domain/ads/schemas";
import { AD_BODY_MAX, AD_DAYS_MAX, AD_LABEL, AD_PLACEMENT_LABELS, AD_STATE_LABELS, AD_TITLE_MAX, type AdCampaignDto, type AdSlotDto } from "~/domain/ads/types";
import { formatKopecks } from "~/domain/ledger/money";
import { getBalances } from "~/domain/ledger/balances.server";
import { isAdminRole } from "~/domain/users/roles-admin";
import { getOptionalUser } from "~/lib/auth.server";
import { formatCount, formatDate, formatDateTime } from "~/lib/format";
import { newIdempotencyKey } from "~/lib/idempotency";
import { pageMeta } from "~/lib/meta";
import { getStorage } from "~/lib/storage/storage.server";
import { runFormAction } from "~/routes/_shared/money-form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Реклама", "Рекламные места на сайте: цены, заявки и статистика показов.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getOptionalUser(context, request);
  const storage = getStorage(context.config);
  const slots = await listAdSlots(context.db);
  if (!viewer) return { slots, member: null };
  const [balances, ads] = await Promise.all([getBalances(context.db, viewer.id), listMyAds(context.db, storage, viewer.id)]);
  return { slots, member: { available: balances.available, ads, isAdmin: isAdminRole(viewer.role), key: newIdempotencyKey() } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const storage = getStorage(context.config);
  return runFormAction(context, request, {
    schema: AdsActionSchema,
    fieldFor: { ad_image_unsupported: "image", ad_slot_not_found: "slotId", invalid_amount: "days" },
    async perform(actor, input) {
      const file = input.image && input.image.size > 0 ? new Uint8Array(await input.image.arrayBuffer()) : null;
      if (input.intent === "preview") {
        // The confirmation step (docs/product/pages.md#ads): everything checked, nothing saved or paid.
        return { show: { preview: await previewAd(context.db, actor, { ...input, image: file }), key: input.key } };
      }
      const image = file ?? (input.imageData ? imageDataBytes(input.imageData) : null);
      const done = await requestAd(context.db, storage, actor, { ...input, image }, input.key);
      return {
        toast: { title: `Заявка №${done.adId} отправлена на проверку`, description: `Удержано ${formatKopecks(done.amount)} до решения администратора` },
        redirectTo: "/ads#my-ads",
      };
    },
  });
}

export default function AdsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { slots, member } = loaderData;
  const confirm = actionData && "preview" in actionData ? (actionData as unknown as { preview: AdPreview; key: string }) : null;
  const refused = actionData?.intent === "request" ? resultFor(actionData, "request") : resultFor(actionData, "preview");
  return (
    <div className="grid gap-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="flex items-center gap-3 font-heading text-3xl font-extrabold">
            <Megaphone aria-hidden className="size-8 text-primary" /> Реклама на сайте
          </h1>
          <p className="mt-1 max-w-2xl text-muted-foreground">
            Выберите место, напишите объявление и оплатите его с баланса. Деньги удерживаются до проверки: если администратор отклонит заявку, они вернутся на
            баланс полностью. Объявления помечаются «{AD_LABEL}».
          </p>
        </div>
        {member?.isAdmin ? (
          <Link to="/admin/ads" className="text-sm font-medium text-primary hover:underline">
            Заявки на проверку →
          </Link>
        ) : null}
      </div>

      <SlotList slots={slots} />

      {member ? (
        <>
          {confirm ? (
            <ConfirmRequest preview={confirm.preview} formKey={confirm.key} />
          ) : (
            <RequestForm key={member.key} slots={slots} formKey={member.key} available={member.available} lastResult={refused} />
          )}
          <MyAds ads={member.ads} />
        </>
      ) : (
        <p className="rounded-xl border border-border bg-card p-6 text-center">
          <Link to="/auth/login?redirect=%2Fads" className="font-medium text-primary hover:underline">
            Войдите
          </Link>
          , чтобы заказать рекламу и видеть статистику своих объявлений.
        </p>
      )}
    </div>
  );
}

function SlotList({ slots }: { slots: AdSlotDto[] }) {
  return (
    <section className="grid gap-3" aria-labelledby="slots-title">
      <h2 id="slots-title" className="font-heading text-xl font-bold">
        Места и цены
      </h2>
      <ul className="grid gap-3 sm:grid-cols-3" data-testid="ad-slots">
        {slots.map((slot) => (
          <li key={slot.id} className="grid gap-1 rounded-xl border border-border bg-card p-4 shadow-sm">
            <p className="font-semibold">{slot.name}</p>
            <p className="text-sm text-muted-foreground">
              {slot.placement === "feed" ? `В ленте после ${slot.feedPosition} постов` : AD_PLACEMENT_LABELS[slot.placement]}
            </p>
            <p className="font-heading text-2xl font-extrabold tabular-nums">
              {formatKopecks(slot.pricePerDay)} <span className="text-sm font-medium text-muted-foreground">в день</span>
            </p>
            <p className="text-sm text-muted-foreground">
              Сейчас занято {slot.running} из {slot.capacity}
              {slot.running >= slot.capacity ? " — новая реклама встанет в очередь" : ""}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RequestForm({
  slots,
  formKey,
  available,
  lastResult,
}: {
  slots: AdSlotDto[];
  formKey: string;
  available: number;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "ad-request",
    lastResult,
    constraint: getZodConstraint(AdPreviewFormSchema),
    shouldValidate: "onSubmit",
    defaultValue: { slotId: String(slots[0]?.id ?? ""), days: "7" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdPreviewFormSchema }),
  });
  const submitting = useSubmitting({ intent: "preview" });
  const slot = slots.find((s) => String(s.id) === String(fields.slotId.value));
  const days = Number(fields.days.value);
  const total = slot && Number.isInteger(days) && days >= 1 && days <= AD_DAYS_MAX ? slot.pricePerDay * days : null;
  return (
    <section className="grid content-start gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm" aria-labelledby="request-title">
      <div>
        <h2 id="request-title" className="font-heading text-xl font-bold">
          Заказать рекламу
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Доступно на балансе: <span className="font-semibold text-foreground tabular-nums">{formatKopecks(available)}</span>.{" "}
          <Link to="/profile/wallet" className="text-primary underline underline-offset-2">
            Кошелёк
          </Link>
        </p>
      </div>
      <Form method="post" encType="multipart/form-data" id={form.id} onSubmit={form.onSubmit} noValidate className="grid gap-4" data-testid="ad-request-form">
        <AuthenticityTokenInput />
        <input type="hidden" name="intent" value="preview" />
        <IdempotencyKeyInput value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Место" id={fields.slotId.id} errors={fields.slotId.errors}>
            <select
              {...getSelectProps(fields.slotId)}
              className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {slots.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} — {formatKopecks(s.pricePerDay)} в день
                </option>
              ))}
            </select>
          </Field>
          <Field label="Срок, дней" id={fields.days.id} errors={fields.days.errors} description={`От 1 до ${AD_DAYS_MAX}`}>
            <Input {...getInputProps(fields.days, { type: "number" })} inputMode="numeric" />
          </Field>
        </div>
        <Field label="Заголовок" id={fields.title.id} errors={fields.title.errors} description={`До ${AD_TITLE_MAX} символов`}>
          <Input {...getInputProps(fields.title, { type: "text" })} />
        </Field>
        <Field label="Текст" id={fields.body.id} errors={fields.body.errors} description={`До ${AD_BODY_MAX} символов`}>
          <Textarea {...getTextareaProps(fields.body)} rows={3} />
        </Field>
        <Field label="Ссылка" id={fields.link.id} errors={fields.link.errors} description="Только http:// или https://">
          <Input {...getInputProps(fields.link, { type: "url" })} placeholder="https://" />
        </Field>
        <Field label="Картинка" id={fields.image.id} errors={fields.image.errors} description="Необязательно: JPEG, PNG, WebP, GIF или AVIF до 10 МБ">
          <Input name={fields.image.name} type="file" accept="image/jpeg,image/png,image/webp,image/gif,image/avif" />
        </Field>
        <p className="text-sm text-muted-foreground" data-testid="ad-total">
          {total !== null ? (
            <>
              К оплате: <span className="font-semibold text-foreground tabular-nums">{formatKopecks(total)}</span> ({days} × {formatKopecks(slot!.pricePerDay)}
              ).{" "}
            </>
          ) : (
            "К оплате: цена места в день × число дней. "
          )}
          Сумма удерживается с баланса до проверки.
        </p>
        <div>
          <Button type="submit" disabled={submitting}>
            {submitting ? "Проверяем…" : "Продолжить"}
          </Button>
        </div>
      </Form>
    </section>
  );
}

/**
 * The confirmation step (a second page without JavaScript): the ad as it will look, the slot, the
 * days, the price and the balance after; «Подтвердить и оплатить» posts the same fields (the
 * picture as its re-encoded data URL) with the same idempotency key, so a double click pays once.
 */
function ConfirmRequest({ preview, formKey }: { preview: AdPreview; formKey: string }) {
  const submitting = useSubmitting({ intent: "request" });
  const { fields } = preview;
  return (
    <section
      className="grid content-start gap-4 rounded-2xl border-2 border-primary/40 bg-card p-6 shadow-sm"
      aria-labelledby="confirm-title"
      data-testid="ad-confirm"
    >
      <h2 id="confirm-title" className="font-heading text-xl font-bold">
        Подтвердите заявку
      </h2>
      <AdCard
        ad={{
          id: 0,
          slotId: preview.slot.id,
          placement: "feed",
          feedPosition: null,
          title: fields.title,
          body: fields.body,
          imageUrl: preview.image,
          href: fields.link,
          host: new URL(fields.link).host,
        }}
      />
      <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
        <dt className="text-muted-foreground">Место</dt>
        <dd>{preview.slot.name}</dd>
        <dt className="text-muted-foreground">Срок</dt>
        <dd>
          {fields.days} дн. × {formatKopecks(preview.slot.pricePerDay)}
        </dd>
        <dt className="text-muted-foreground">Ссылка</dt>
        <dd className="break-all">{fields.link}</dd>
        <dt className="text-muted-foreground">К оплате</dt>
        <dd className="font-semibold tabular-nums" data-testid="confirm-amount">
          {formatKopecks(preview.amount)} (комиссии нет)
        </dd>
        <dt className="text-muted-foreground">Останется на балансе</dt>
        <dd className="tabular-nums">{formatKopecks(preview.balanceAfter)}</dd>
      </dl>
      <p className="text-sm text-muted-foreground">Сумма удерживается до проверки. Если заявку отклонят, она вернётся на баланс полностью.</p>
      <div className="flex flex-wrap items-center gap-3">
        <Form method="post" encType="multipart/form-data">
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="request" />
          <IdempotencyKeyInput value={formKey} />
          <input type="hidden" name="slotId" value={fields.slotId} />
          <input type="hidden" name="title" value={fields.title} />
          <input type="hidden" name="body" value={fields.body} />
          <input type="hidden" name="link" value={fields.link} />
          <input type="hidden" name="days" value={fields.days} />
          {preview.image ? <input type="hidden" name="imageData" value={preview.image} /> : null}
          <Button type="submit" disabled={submitting}>
            {submitting ? "Выполняется…" : "Подтвердить и оплатить"}
          </Button>
        </Form>
        <Link to="/ads" className="text-sm font-medium text-primary hover:underline">
          Изменить
        </Link>
      </div>
    </section>
  );
}

function MyAds({ ads }: { ads: AdCampaignDto[] }) {
  return (
    <section id="my-ads" className="grid gap-3" aria-labelledby="my-ads-title">
      <h2 id="my-ads-title" className="font-heading text-xl font-bold">
        Мои объявления
      </h2>
      {ads.length === 0 ? (
        <p className="text-muted-foreground">Заявок пока нет.</p>
      ) : (
        <ul className="grid gap-3" data-testid="my-ads">
          {ads.map((ad) => (
            <li key={ad.id} className="grid gap-2 rounded-xl border border-border bg-card p-4 shadow-sm" data-testid="my-ad">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">
                  №{ad.id} «{ad.title}»
                </span>
                <StateBadge ad={ad} />
              </div>
              <p className="text-sm text-muted-foreground">
                {ad.slot.name} · {ad.days} дн. · {formatKopecks(ad.amount)} · подана {formatDateTime(ad.createdAt)}
                {ad.startsAt && ad.endsAt ? ` · показ с ${formatDate(ad.startsAt)} по ${formatDate(ad.endsAt)}` : ""}
              </p>
              {ad.rejectionReason ? <p className="text-sm text-destructive">Причина отказа: {ad.rejectionReason}</p> : null}
              {ad.state === "approved" ? (
                <>
                  <p className="text-sm" data-testid="ad-stats">
                    Показов: <strong>{formatCount(ad.impressions)}</strong> · Переходов: <strong>{formatCount(ad.clicks)}</strong>
                  </p>
                  {ad.daily.length > 0 ? (
                    <details className="text-sm">
                      <summary className="cursor-pointer text-primary">По дням</summary>
                      <table className="mt-2 w-full max-w-md text-left tabular-nums">
                        <thead className="text-muted-foreground">
                          <tr>
                            <th className="py-1 font-medium">День</th>
                            <th className="py-1 font-medium">Показы</th>
                            <th className="py-1 font-medium">Переходы</th>
                          </tr>
                        </thead>
                        <tbody>
                          {ad.daily.map((day) => (
                            <tr key={day.day} className="border-t border-border">
                              <td className="py-1">{formatDate(`${day.day}T12:00:00Z`)}</td>
                              <td className="py-1">{formatCount(day.impressions)}</td>
                              <td className="py-1">{formatCount(day.clicks)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </details>
                  ) : null}
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StateBadge({ ad }: { ad: AdCampaignDto }) {
  if (ad.running) return <Badge variant="success">Показывается</Badge>;
  if (ad.expired) return <Badge variant="outline">Завершена</Badge>;
  if (ad.state === "approved") return <Badge variant="secondary">Одобрена, ждёт начала</Badge>;
  if (ad.state === "rejected") return <Badge variant="destructive">{AD_STATE_LABELS.rejected}</Badge>;
  return <Badge variant="warning">{AD_STATE_LABELS.pending}</Badge>;
}
