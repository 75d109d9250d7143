/** The bare layout (docs/product/routes.md#layouts): the header and a full-width page, no footer. */
import { Outlet } from "react-router";
import { BottomNav } from "~/components/layout/bottom-nav";
import { SiteHeader } from "~/components/layout/site-header";
import { useRootData } from "~/root-data";

export default function BareLayout() {
  const root = useRootData();
  return (
    <div className="flex min-h-screen flex-col max-md:pb-(--bottom-nav-height)">
      <SiteHeader siteName={root?.siteName ?? "Сходка"} viewer={root?.viewer ?? null} />
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
        <Outlet />
      </main>
      <BottomNav viewer={root?.viewer ?? null} />
    </div>
  );
}
