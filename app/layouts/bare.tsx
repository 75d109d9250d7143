/** The bare layout (docs/product/routes.md#layouts): the header and a full-width page, no footer. */
import { Outlet } from "react-router";
import { SiteHeader } from "~/components/layout/site-header";
import { useRootData } from "~/root-data";

export default function BareLayout() {
  const root = useRootData();
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader siteName={root?.siteName ?? "Сходка"} viewer={root?.viewer ?? null} />
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
