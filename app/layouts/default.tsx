/** The default layout (docs/product/routes.md#layouts): header, a centred content column, footer. */
import { Outlet } from "react-router";
import { BottomNav } from "~/components/layout/bottom-nav";
import { SiteFooter, SiteHeader } from "~/components/layout/site-header";
import { useRootData } from "~/root-data";

export default function DefaultLayout() {
  const root = useRootData();
  const siteName = root?.siteName ?? "Сходка";
  return (
    <div className="flex min-h-screen flex-col max-md:pb-(--bottom-nav-height)">
      <SiteHeader siteName={siteName} viewer={root?.viewer ?? null} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        <Outlet />
      </main>
      <SiteFooter siteName={siteName} />
      <BottomNav viewer={root?.viewer ?? null} />
    </div>
  );
}
