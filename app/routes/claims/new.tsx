/**
 * /claims/new (sign-in required; docs/product/claims.md#filing-a-claim): file a claim. ?accused=username
 * and ?deal=12 prefill the form (the profile's «Подать претензию» link, a deal page). A filed
 * claim redirects to its page; a refusal shows the form again with the Russian reason.
 */
import type { Route } from "./+types/new";
import { ClaimForm } from "~/components/claims/claim-form";
import { FileClaimPageSchema } from "~/components/claims/schemas";
import { fileClaim } from "~/domain/claims/claims.server";
import { requireUser } from "~/lib/auth.server";
import { newIdempotencyKey } from "~/lib/idempotency";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Новая претензия");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  const search = new URL(request.url).searchParams;
  return {
    accused: (search.get("accused") ?? "").slice(0, 64),
    dealId: /^\d{1,9}$/u.test(search.get("deal") ?? "") ? search.get("deal")! : "",
    idempotencyKey: newIdempotencyKey(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: FileClaimPageSchema,
    // An unknown member is the accused field's fault: show it under that field.
    fieldFor: { accused_not_found: "accused" },
    async perform(claimant, value) {
      // value.key is the form's idempotency key (IdempotencyKeyInput), for fileClaim to replay a resubmitted form.
      const claim = await fileClaim(context.db, claimant.id, value, value.key);
      return { redirectTo: `/claims/${claim.id}`, toast: { title: "Претензия подана", description: "Модератор рассмотрит её и примет решение." } };
    },
  });
}

export default function NewClaimPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Новая претензия</h1>
        <p className="mt-1 text-muted-foreground">
          Опишите, что произошло, и приложите доказательства. Если модератор признает претензию обоснованной, участник получит ранг «Мошенник» и попадёт в
          чёрный список, а ущерб может быть возмещён из его депозита.
        </p>
      </div>
      <ClaimForm
        idempotencyKey={loaderData.idempotencyKey}
        lastResult={actionData?.result}
        defaultValue={{ accused: loaderData.accused, dealId: loaderData.dealId }}
      />
    </div>
  );
}
