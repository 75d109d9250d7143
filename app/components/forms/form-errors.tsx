import { AlertCircle } from "lucide-react";

/** Errors of the whole form (not of one field), announced to screen readers. */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  const list = (errors ?? []).filter(Boolean);
  if (list.length === 0) return null;
  return (
    <div id={id} role="alert" className="flex gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
      <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
      <ul>
        {list.map((error) => (
          <li key={error}>{error}</li>
        ))}
      </ul>
    </div>
  );
}
