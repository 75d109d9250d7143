/** /chatgpt (members; bare layout, docs/product/routes.md; issue 11): the assistant — a new conversation and the list of earlier ones. */
import type { Route } from "./+types/index";
import { AssistantScreen } from "~/components/assistant/assistant-screen";
import { pageMeta } from "~/lib/meta";
import { loadAssistantPage, runAssistantAction } from "./data.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Ассистент");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadAssistantPage(context, request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return runAssistantAction(context, request);
}

export default function AssistantPage({ loaderData, actionData }: Route.ComponentProps) {
  return <AssistantScreen data={loaderData} actionData={actionData} />;
}
