/**
 * What the follow and block forms post (docs/product/accounts.md#follows-and-blocks). Without an `intent` the form
 * toggles, as POST /profile/{id}/follow and /block are described in issue 3.
 */
import { z } from "zod";

export const FollowActionSchema = z.object({
  intent: z.enum(["follow", "unfollow", "toggle"], { error: "Неизвестное действие" }).default("toggle"),
});

export const BlockActionSchema = z.object({
  intent: z.enum(["block", "unblock", "toggle"], { error: "Неизвестное действие" }).default("toggle"),
});
