/** The forms of /chatgpt (issue 11), shared by Conform in the browser and the pages' actions. */
import { z } from "zod";
import { cleanTextRefinement } from "~/lib/text";

export const SendFormSchema = z.object({
  intent: z.literal("send"),
  /** Checked against ASSISTANT_MAX_PROMPT_CHARS by the domain (the limit is configuration). */
  content: z
    .string({ error: "Напишите сообщение" })
    .trim()
    .min(1, "Напишите сообщение")
    .refine(...cleanTextRefinement()),
});

export const RenameFormSchema = z.object({
  intent: z.literal("rename"),
  title: z
    .string({ error: "Укажите название" })
    .trim()
    .min(1, "Укажите название")
    .max(100, "Название — не длиннее 100 символов")
    .refine(...cleanTextRefinement()),
});

export const DeleteFormSchema = z.object({ intent: z.literal("delete") });

export const ConversationActionSchema = z.discriminatedUnion("intent", [SendFormSchema, RenameFormSchema, DeleteFormSchema]);
