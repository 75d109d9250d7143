/**
 * What an empty wallet says (docs/product/money.md#how-money-gets-in): the site takes no card or
 * crypto payments yet — an admin tops members up (docs/product/money.md#top-ups) — and money
 * also arrives from other members: transfers, a guarantor deal's payout, a claim's compensation.
 * «Написать администратору» opens the personal conversation with `admin` (a plain form post to
 * /profile/{id}/message, so it works without JavaScript).
 */
import { ArrowDownToLine, MessageCircle } from "lucide-react";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/components/ui/button";
import type { UserRefDto } from "~/domain/users/users.server";
import { cn } from "~/lib/utils";

export function TopUpHelp({ admin, className }: { admin: UserRefDto | null; className?: string }) {
  return (
    <section
      className={cn("rounded-2xl border border-primary/40 bg-primary/5 p-5 sm:p-6", className)}
      aria-labelledby="topup-help-title"
      data-testid="topup-help"
    >
      <div className="flex items-start gap-3">
        <ArrowDownToLine aria-hidden className="mt-1 size-5 shrink-0 text-primary max-sm:hidden" />
        <div className="grid gap-3">
          <h2 id="topup-help-title" className="font-heading text-xl font-bold">
            Как пополнить баланс
          </h2>
          <p>
            Оплата картой или криптовалютой на сайте пока не подключена — баланс пополняет администратор. Напишите ему, на какую сумму хотите пополнить: после
            зачисления деньги появятся в графе «Доступно» и в истории операций.
          </p>
          <p className="text-sm text-muted-foreground">
            Деньги приходят и от участников: перевод на ваше имя, оплата по{" "}
            <Link to="/services/guarantor" className="font-medium text-primary hover:underline">
              сделке через гаранта
            </Link>
            , где вы продавец, или возмещение по признанной претензии.
          </p>
          {admin ? (
            <Form method="post" action={`/profile/${admin.id}/message`} className="flex flex-wrap items-center gap-3">
              <AuthenticityTokenInput />
              <Button type="submit" className="min-h-11">
                <MessageCircle aria-hidden /> Написать администратору
              </Button>
              <span className="text-sm text-muted-foreground">
                {admin.displayName ? `${admin.displayName} · ` : null}@{admin.username}
              </span>
            </Form>
          ) : null}
        </div>
      </div>
    </section>
  );
}
