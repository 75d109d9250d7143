/**
 * The page a profile form answers with when the action refused it and JavaScript is off
 * (the form targets live outside the layouts): the header, the Russian reason and a way back.
 * With JavaScript the same reasons show inline beside the form instead.
 */
import { ArrowLeft } from "lucide-react";
import { Link } from "~/components/ui/link";
import { FormErrors } from "~/components/forms/form-errors";
import { SiteHeader } from "~/components/layout/site-header";
import { Button } from "~/components/ui/button";
import { useRootData } from "~/root-data";

export function ActionRefusedPage({ title, errors, back, children }: { title: string; errors: string[]; back: string; children?: React.ReactNode }) {
  const root = useRootData();
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader siteName={root?.siteName ?? "Сходка"} viewer={root?.viewer ?? null} />
      <main id="main" className="mx-auto grid w-full max-w-3xl flex-1 content-start gap-6 px-4 py-10">
        <h1 className="font-heading text-2xl font-extrabold">{title}</h1>
        <FormErrors errors={errors} />
        {children}
        <div>
          <Button asChild variant="outline">
            <Link to={back}>
              <ArrowLeft aria-hidden /> Вернуться к профилю
            </Link>
          </Button>
        </div>
      </main>
    </div>
  );
}
