import type { SubmissionResult } from "@conform-to/react";
import type { MessageDto } from "~/domain/conversations/types";

/** What the conversations page's action answers a fetcher, or the page after a refused plain post. */
export interface ConversationActionData {
  /** The form's intent: send, edit, delete, read, create-group, invite, remove-member, leave. */
  intent: string;
  ok: boolean;
  /** Conform's reply: the refusal's messages, or a reset after success. */
  result: SubmissionResult<string[]>;
  /** The message sent or edited. */
  message?: MessageDto;
}
