/** What the /profile/notifications forms post: read one notification (and go to it), or read them all. */
import { z } from "zod";

const BAD_ID = "Неверный номер уведомления";

export const NotificationActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("read"),
      id: z.coerce.number({ error: BAD_ID }).int(BAD_ID).positive(BAD_ID).max(2_147_483_647, BAD_ID),
    }),
    z.object({ intent: z.literal("read-all") }),
  ],
  { error: "Неизвестное действие" },
);
export type NotificationAction = z.infer<typeof NotificationActionSchema>;
