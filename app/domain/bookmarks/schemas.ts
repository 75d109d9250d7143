/** The bookmark form posted to /bookmarks (issue 3 item 5): which post, and the state the button asked for. */
import { z } from "zod";

export const BookmarkFormSchema = z.object({
  postId: z.coerce.number({ error: "Неверный номер поста" }).int("Неверный номер поста").positive("Неверный номер поста"),
  /** "true"/"false" from a hidden input; absent means "toggle". */
  bookmarked: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
});
export type BookmarkForm = z.infer<typeof BookmarkFormSchema>;
