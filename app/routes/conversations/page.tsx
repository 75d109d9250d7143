/**
 * /profile/conversations?group={id} or ?personal={id} (docs/product/routes.md#pages: sign-in, bare layout; issue 4
 * item 1): the member's conversations beside the open one. `before` pages history upwards,
 * `reply` and `edit` prepare the composer without JavaScript. Opening a conversation marks it
 * read. The forms post here with an `intent` (actions.server.ts).
 */
import { MessagesSquare, Users, Zap } from "lucide-react";
import { type ShouldRevalidateFunctionArgs } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/page";
import { ConversationList } from "~/components/conversations/conversation-list";
import { ConversationView } from "~/components/conversations/conversation-view";
import { CONVERSATIONS_PATH, conversationHref, isReadMarking } from "~/components/conversations/links";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { cn } from "~/lib/utils";
import { runConversationAction } from "./actions.server";
import { loadConversationsPage } from "./data.server";

export const meta: Route.MetaFunction = ({ data, matches }) => pageMeta(matches, data?.open ? `${data.open.conversation.name} — беседы` : "Беседы");

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(context, request);
  return pageData(() => loadConversationsPage(context.db, viewer.id, new URL(request.url).searchParams));
}

export async function action({ request, context }: Route.ActionArgs) {
  return runConversationAction(context, request);
}

/** Marking read changes nothing on this page: no need to load it again. */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  if (isReadMarking(args)) return false;
  return args.defaultShouldRevalidate;
}

export default function ConversationsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { open, viewerId } = loaderData;
  const address = open?.address ?? null;
  return (
    <div
      className={cn(
        // Phones: the header and the sections strip above (7.4rem), the bottom bar's room below.
        "-mx-4 -my-6 flex h-[calc(100dvh-7.4rem-var(--bottom-nav-height))] min-h-[24rem] overflow-hidden bg-background",
        "md:mx-0 md:my-0 md:h-[calc(100dvh-7rem)] md:rounded-2xl md:border md:border-border md:shadow-sm",
      )}
    >
      <aside className={cn("w-full shrink-0 flex-col border-border md:flex md:w-80 md:border-r", address ? "hidden" : "flex")}>
        <ConversationList
          publicConversation={loaderData.publicConversation}
          groups={loaderData.groups}
          personal={loaderData.personal}
          current={address}
          viewerId={viewerId}
          online={loaderData.online}
          formAction={address ? conversationHref(address) : CONVERSATIONS_PATH}
          createGroupResult={actionData?.intent === "create-group" ? actionData.result : null}
        />
      </aside>
      <section aria-label="Открытая беседа" className={cn("min-w-0 flex-1 flex-col", address ? "flex" : "hidden md:flex")}>
        {open ? (
          <ConversationView
            key={`${open.address.kind}-${open.address.id}-${open.olderPage ? open.history.before : "latest"}`}
            address={open.address}
            conversation={open.conversation}
            history={open.history}
            olderPage={open.olderPage}
            replyTo={open.replyTo}
            editing={open.editing}
            viewerId={viewerId}
            peerOnline={open.conversation.peer ? loaderData.online.includes(open.conversation.peer.id) : false}
            actionData={actionData}
          />
        ) : (
          <NoConversation publicHref={conversationHref({ kind: "group", id: loaderData.publicConversation.id })} />
        )}
      </section>
    </div>
  );
}

/** With nothing open: what the page is for and where to start. */
function NoConversation({ publicHref }: { publicHref: string }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-6 bg-muted/20 px-6 text-center">
      <span className="inline-flex size-20 items-center justify-center rounded-full bg-primary/10 text-primary">
        <MessagesSquare aria-hidden className="size-10" />
      </span>
      <div className="grid max-w-md gap-2">
        <h2 className="font-heading text-2xl font-bold">Выберите беседу</h2>
        <p className="text-muted-foreground">
          Откройте беседу слева, загляните в общий чат сообщества или начните разговор с участником — на его странице есть кнопка «Написать».
        </p>
      </div>
      <div className="grid w-full max-w-md gap-3 text-left sm:grid-cols-2">
        <Link to={publicHref} className="flex items-start gap-3 rounded-xl border border-border bg-card p-4 shadow-xs transition-colors hover:bg-accent">
          <MessagesSquare aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
          <span>
            <span className="block font-semibold">Общий чат</span>
            <span className="text-sm text-muted-foreground">Пишите всем участникам сайта</span>
          </span>
        </Link>
        <div className="flex items-start gap-3 rounded-xl border border-border bg-card p-4 shadow-xs">
          <Users aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
          <span>
            <span className="block font-semibold">Своя группа</span>
            <span className="text-sm text-muted-foreground">Дайте ей название в форме слева и пригласите участников</span>
          </span>
        </div>
      </div>
      <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
        <Zap aria-hidden className="size-3.5" /> Новые сообщения приходят сразу, без обновления страницы.
      </p>
    </div>
  );
}
