/** The primitive layout (SPEC.md 2): the page alone, without header or footer. */
import { Outlet } from "react-router";

export default function PrimitiveLayout() {
  return (
    <main id="main" className="min-h-screen p-4">
      <Outlet />
    </main>
  );
}
