/** The open conversation's header (see ConversationHeader). */
import { ArrowLeft, Globe } from "lucide-react";
import { Link } from "~/components/ui/link";
import { useOnline } from "~/components/realtime/realtime-provider";
import { MemberAvatar } from "~/components/users/trust-card";
import type { ConversationDetailDto } from "~/domain/conversations/types";
import { cn } from "~/lib/utils";
import { ConversationAvatar } from "./conversation-list";
import { membersLabel } from "./group-members";
import { CONVERSATIONS_PATH } from "./links";
import { WithOnlineDot } from "./online-dot";

/**
 * The header of the open conversation: its avatar (the peer's, with the online dot, in a
 * personal one), its name and a subtitle — the member count, «Все участники сайта», or for a
 * personal conversation «в сети» while the other member is connected (docs/product/conversations.md#online).
 */
export function ConversationHeader({ conversation, peerOnline }: { conversation: ConversationDetailDto; peerOnline: boolean }) {
  const peer = conversation.kind === "personal" ? conversation.peer : null;
  const online = useOnline(peer?.id, peerOnline);
  const subtitle =
    conversation.kind === "public"
      ? "Все участники сайта"
      : conversation.kind === "group"
        ? membersLabel(conversation.memberCount)
        : online
          ? "в сети"
          : "Личная беседа";
  return (
    <header className="flex items-center gap-3 border-b border-border px-3 py-3 sm:px-4">
      <Link
        to={CONVERSATIONS_PATH}
        aria-label="Все беседы"
        className="-ml-1 rounded-md p-1.5 text-muted-foreground hover:bg-accent hover:text-foreground md:hidden"
      >
        <ArrowLeft aria-hidden className="size-5" />
      </Link>
      {peer ? (
        <WithOnlineDot userId={peer.id} initial={peerOnline}>
          <MemberAvatar member={peer} />
        </WithOnlineDot>
      ) : (
        <ConversationAvatar conversation={conversation} />
      )}
      <div className="min-w-0 flex-1">
        <h2 className="truncate font-heading text-base font-bold" data-testid="conversation-title">
          {peer ? (
            <Link to={`/profile/${peer.id}`} className="hover:underline">
              {conversation.name}
            </Link>
          ) : (
            conversation.name
          )}
        </h2>
        <p
          className={cn("flex items-center gap-1 truncate text-xs", online ? "text-emerald-700 dark:text-emerald-400" : "text-muted-foreground")}
          data-testid="conversation-subtitle"
        >
          {conversation.kind === "public" ? <Globe aria-hidden className="size-3" /> : null}
          {subtitle}
        </p>
      </div>
    </header>
  );
}
