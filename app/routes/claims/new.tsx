/**
 * /claims/new (sign-in required; PRODUCT.md Claims and blacklist): file a claim. ?accused=username
 * and ?deal=12 prefill the form (the profile's «Подать претензию» link, a deal page). A filed
 * claim redirects to its page; a refusal shows the form again with the Russian reason.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/new";
import { ClaimForm } from "~/components/claims/claim-form";
import { fileClaim } from "~/domain/claims/claims.server";
import { FileClaimFormSchema } from "~/domain/claims/schemas";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Новая претензия");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  const search = new URL(request.url).searchParams;
  return { accused: (search.get("accused") ?? "").slice(0, 64), dealId: /^\d{1,9}$/u.test(search.get("deal") ?? "") ? search.get("deal")! : "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const claimant = await requireUser(context, request);
  const submission = parseWithZod(await pageData(() => readForm(request)), { schema: FileClaimFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await validateCsrf(request);
    const claim = await fileClaim(context.db, claimant.id, submission.value);
    return redirectWithToast(`/claims/${claim.id}`, { title: "Претензия подана", description: "Модератор рассмотрит её и примет решение." });
  } catch (error) {
    // An unknown member is the accused field's fault: show it under that field.
    if (error instanceof AppError && error.code === "accused_not_found") {
      return data({ result: submission.reply({ fieldErrors: { accused: [error.message] } }) }, { status: error.status });
    }
    return replyWithError(submission, error);
  }
}

export default function NewClaimPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Новая претензия</h1>
        <p className="mt-1 text-muted-foreground">
          Опишите, что произошло, и приложите доказательства. Если модератор признает претензию обоснованной, участник получит ранг
          «Мошенник» и попадёт в чёрный список, а ущерб может быть возмещён из его депозита.
        </p>
      </div>
      <ClaimForm lastResult={actionData?.result} defaultValue={{ accused: loaderData.accused, dealId: loaderData.dealId }} />
    </div>
  );
}
