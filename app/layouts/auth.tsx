/** The auth layout (docs/product/routes.md#layouts): a centred card on a soft background, the site name above it. */
import { Outlet } from "react-router";
import { Link } from "~/components/ui/link";
import { useRootData } from "~/root-data";

export default function AuthLayout() {
  const siteName = useRootData()?.siteName ?? "Сходка";
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-br from-primary/15 via-background to-secondary px-4 py-12">
      <Link to="/" className="mb-8 font-heading text-3xl font-extrabold tracking-tight text-primary">
        {siteName}
      </Link>
      <div className="w-full max-w-md">
        <Outlet />
      </div>
    </main>
  );
}
