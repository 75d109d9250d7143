/** The like form posted to /likes (issue 3 item 2): which item, and the state the button asked for. */
import { z } from "zod";
import type { LikeTarget } from "~/lib/events.server";

export const LIKE_TARGETS = ["post", "comment", "wall_post"] as const satisfies readonly LikeTarget[];

/** "true"/"false" from a hidden input; absent means "toggle". */
const wantedState = z.enum(["true", "false"]).transform((value) => value === "true");

export const LikeFormSchema = z.object({
  target: z.enum(LIKE_TARGETS, { error: "Неизвестный тип публикации" }),
  id: z.coerce.number({ error: "Неверный номер публикации" }).int("Неверный номер публикации").positive("Неверный номер публикации"),
  liked: wantedState.optional(),
});
export type LikeForm = z.infer<typeof LikeFormSchema>;
