/**
 * /admin/ads (admins; docs/product/pages.md#ads): ad requests waiting for review, oldest first,
 * each with the advertiser, slot, period, price, text, link and picture, and two forms: approve
 * (the held money goes to the platform, the ad starts when its slot has a place) and reject with
 * a reason (the money goes back). Below, the slots on sale or not, each linked to its form
 * (/admin/ads/slots/{id}, and /new to add one), then the last reviewed requests with their statistics. A
 * visitor is sent to sign in; anyone but an admin gets 403. Every form works without JavaScript.
 */
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/ads";
import type { FormActionData } from "~/components/forms/action-data";
import { messagesOf } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { IdempotencyKeyInput } from "~/components/forms/idempotency-key-input";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { listAdsForReview } from "~/domain/ads/ad-listings.server";
import { approveAd, rejectAd } from "~/domain/ads/ads.server";
import { listAdSlotsForAdmin } from "~/domain/ads/slots.server";
import { AdReviewFormSchema } from "~/domain/ads/schemas";
import { AD_LINK_REL, AD_PLACEMENT_LABELS, AD_REASON_MAX, AD_STATE_LABELS, type AdCampaignDto, type AdminAdSlotDto } from "~/domain/ads/types";
import { formatKopecks } from "~/domain/ledger/money";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { formatCount, formatDate, formatDateTime } from "~/lib/format";
import { newIdempotencyKey } from "~/lib/idempotency";
import { pageMeta } from "~/lib/meta";
import { revalidateAfterConflict } from "~/lib/revalidate";
import { getStorage } from "~/lib/storage/storage.server";
import { runFormAction } from "~/routes/_shared/money-form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Реклама: заявки");
export const shouldRevalidate = revalidateAfterConflict;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const [lists, slots] = await pageData(() =>
    Promise.all([listAdsForReview(context.db, getStorage(context.config), user), listAdSlotsForAdmin(context.db, user)]),
  );
  return { ...lists, slots, keys: Object.fromEntries(lists.pending.map((ad) => [ad.id, { approve: newIdempotencyKey(), reject: newIdempotencyKey() }])) };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: AdReviewFormSchema,
    async perform(actor, input) {
      if (input.intent === "approve") {
        const done = await approveAd(context.db, actor, input.adId, input.key);
        return {
          toast: { title: `Заявка №${done.adId} одобрена`, description: `Показ с ${formatDateTime(done.startsAt!)} по ${formatDateTime(done.endsAt!)}` },
        };
      }
      await rejectAd(context.db, actor, input.adId, input.reason, input.key);
      return { toast: { title: `Заявка №${input.adId} отклонена`, description: "Деньги возвращены рекламодателю" } };
    },
  });
}

export default function AdminAdsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { pending, reviewed, slots, keys } = loaderData;
  const errors = messagesOf((actionData as FormActionData | undefined)?.result);
  return (
    <div className="grid gap-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="font-heading text-3xl font-extrabold">Реклама: заявки</h1>
        <Link to="/ads" className="text-sm font-medium text-primary hover:underline">
          Страница рекламы →
        </Link>
      </div>
      <FormErrors errors={errors} />
      <section className="grid gap-3" aria-labelledby="pending-title">
        <h2 id="pending-title" className="font-heading text-xl font-bold">
          На проверке ({pending.length})
        </h2>
        {pending.length === 0 ? (
          <p className="text-muted-foreground">Новых заявок нет.</p>
        ) : (
          <ul className="grid gap-4" data-testid="pending-ads">
            {pending.map((ad) => (
              <li key={ad.id} id={`ad-${ad.id}`} className="grid gap-3 rounded-xl border border-border bg-card p-4 shadow-sm" data-testid="pending-ad">
                <AdSummary ad={ad} />
                <div className="flex flex-wrap items-start gap-3">
                  <Form method="post">
                    <AuthenticityTokenInput />
                    <input type="hidden" name="intent" value="approve" />
                    <input type="hidden" name="adId" value={ad.id} />
                    <IdempotencyKeyInput value={keys[ad.id]!.approve} />
                    <Button type="submit">Одобрить</Button>
                  </Form>
                  <Form method="post" className="flex flex-1 flex-wrap gap-2">
                    <AuthenticityTokenInput />
                    <input type="hidden" name="intent" value="reject" />
                    <input type="hidden" name="adId" value={ad.id} />
                    <IdempotencyKeyInput value={keys[ad.id]!.reject} />
                    <Input
                      name="reason"
                      required
                      maxLength={AD_REASON_MAX}
                      placeholder="Причина отказа"
                      aria-label={`Причина отказа по заявке №${ad.id}`}
                      className="max-w-sm"
                    />
                    <Button type="submit" variant="destructive">
                      Отклонить
                    </Button>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <AdSlotList slots={slots} />
      <section className="grid gap-3" aria-labelledby="reviewed-title">
        <h2 id="reviewed-title" className="font-heading text-xl font-bold">
          Рассмотренные
        </h2>
        {reviewed.length === 0 ? (
          <p className="text-muted-foreground">Пока ничего.</p>
        ) : (
          <ul className="grid gap-3" data-testid="reviewed-ads">
            {reviewed.map((ad) => (
              <li key={ad.id} id={`ad-${ad.id}`} className="grid gap-2 rounded-xl border border-border bg-card p-4 shadow-sm">
                <AdSummary ad={ad} />
                {ad.state === "approved" ? (
                  <p className="text-sm">
                    {ad.startsAt && ad.endsAt ? `Показ с ${formatDate(ad.startsAt)} по ${formatDate(ad.endsAt)} · ` : ""}
                    Показов: {formatCount(ad.impressions)} · Переходов: {formatCount(ad.clicks)}
                  </p>
                ) : (
                  <p className="text-sm text-destructive">Причина отказа: {ad.rejectionReason}</p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function AdSummary({ ad }: { ad: AdCampaignDto }) {
  return (
    <div className="flex flex-wrap gap-4">
      {ad.imageUrl ? <img src={ad.imageUrl} alt="" className="h-24 w-40 rounded-lg object-cover" /> : null}
      <div className="grid min-w-0 flex-1 content-start gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold">
            №{ad.id} «{ad.title}»
          </span>
          <Badge variant={ad.state === "pending" ? "warning" : ad.state === "approved" ? "success" : "destructive"}>{AD_STATE_LABELS[ad.state]}</Badge>
        </div>
        <p className="text-sm break-words">{ad.body}</p>
        <p className="text-sm break-all">
          <a href={ad.link} rel={`${AD_LINK_REL} noreferrer`} className="text-primary hover:underline">
            {ad.link}
          </a>
        </p>
        <p className="text-sm text-muted-foreground">
          <Link to={`/profile/${ad.advertiser.id}`} className="hover:underline">
            {ad.advertiser.username}
          </Link>{" "}
          · {ad.slot.name} · {ad.days} дн. · {formatKopecks(ad.amount)} · подана {formatDateTime(ad.createdAt)}
        </p>
      </div>
    </div>
  );
}

/** The slots, on sale or not: what they cost, how full they are, each linked to its form. */
function AdSlotList({ slots }: { slots: AdminAdSlotDto[] }) {
  return (
    <section className="grid gap-3" aria-labelledby="slots-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="slots-title" className="font-heading text-xl font-bold">
          Места для рекламы
        </h2>
        <Button asChild variant="outline">
          <Link to="/admin/ads/slots/new">Добавить место</Link>
        </Button>
      </div>
      {slots.length === 0 ? (
        <p className="text-muted-foreground">Мест пока нет: добавьте первое, чтобы участники могли подать заявку.</p>
      ) : (
        <ul className="grid gap-2" data-testid="ad-slots">
          {slots.map((slot) => (
            <li
              key={slot.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-card p-4 shadow-sm"
              data-testid="ad-slot"
            >
              <div className="grid min-w-0 gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Link to={`/admin/ads/slots/${slot.id}`} className="font-semibold break-words text-primary hover:underline">
                    {slot.name}
                  </Link>
                  {slot.active ? <Badge variant="success">Открыто для заявок</Badge> : <Badge variant="secondary">Снято с продажи</Badge>}
                </div>
                <p className="text-sm text-muted-foreground">
                  {slot.placement === "feed" ? `В ленте после ${formatCount(slot.feedPosition ?? 0)}-го поста` : AD_PLACEMENT_LABELS[slot.placement]} ·{" "}
                  {formatKopecks(slot.pricePerDay)} в день · показывается {formatCount(slot.running)} из {formatCount(slot.capacity)} · ждут проверки:{" "}
                  {formatCount(slot.pending)}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
