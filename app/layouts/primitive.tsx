/** The primitive layout (docs/product/routes.md#layouts): the page alone, without header or footer. */
import { Outlet } from "react-router";

export default function PrimitiveLayout() {
  return (
    <main id="main" className="min-h-screen p-4">
      <Outlet />
    </main>
  );
}
