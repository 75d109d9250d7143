/**
 * «Написать» on a member's public profile: a plain form posting to /profile/{id}/message, which
 * opens the personal conversation (creating it on first use). Without JavaScript it is an
 * ordinary form post; with it, the same navigation without a reload.
 */
import { MessageCircle } from "lucide-react";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/components/ui/button";

/** «Написать» to member `profileId` (see the module comment). */
export function StartConversationButton({ profileId }: { profileId: number }) {
  return (
    <Form method="post" action={`/profile/${profileId}/message`}>
      <AuthenticityTokenInput />
      <Button type="submit" size="sm" variant="secondary">
        <MessageCircle aria-hidden /> Написать
      </Button>
    </Form>
  );
}
