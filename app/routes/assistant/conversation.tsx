/** /chatgpt/{id} (the member's own conversation; 404 for anyone else's; issue 11): its messages, the composer, rename and delete. */
import type { Route } from "./+types/conversation";
import { AssistantScreen } from "~/components/assistant/assistant-screen";
import { pageMeta } from "~/lib/meta";
import { loadAssistantPage, runAssistantAction } from "./data.server";

export const meta: Route.MetaFunction = ({ matches, data }) => pageMeta(matches, data?.conversation ? `${data.conversation.title} — ассистент` : "Ассистент");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return loadAssistantPage(context, request, Number(params.id));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return runAssistantAction(context, request, Number(params.id));
}

export default function AssistantConversationPage({ loaderData, actionData }: Route.ComponentProps) {
  return <AssistantScreen key={loaderData.conversation?.id} data={loaderData} actionData={actionData} />;
}
