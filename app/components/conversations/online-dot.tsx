/**
 * The green dot on the avatar of a member connected to realtime now
 * (docs/product/conversations.md#online): what the page's loader read, then presence frames.
 */
import { useOnline } from "~/components/realtime/realtime-provider";

/** `children` (an avatar) with the dot at its lower right while member `userId` is online. */
export function WithOnlineDot({ userId, initial, children }: { userId: number | null | undefined; initial: boolean; children: React.ReactNode }) {
  const online = useOnline(userId, initial);
  return (
    <span className="relative inline-flex shrink-0" data-online={online ? "true" : "false"}>
      {children}
      {online ? (
        <span
          data-testid="online-dot"
          role="img"
          aria-label="В сети"
          title="В сети"
          className="pointer-events-none absolute right-0 bottom-0 size-3 rounded-full bg-emerald-500 ring-2 ring-background"
        />
      ) : null}
    </span>
  );
}
