/**
 * FAQ input (issue 11), shared by the domain, Conform in the browser and /admin/faq's actions.
 * A question is 1–300 characters, an answer (Markdown) 1–20 000, a section title 1–200; an
 * anchor is optional (made from the question when empty) and must be a Latin slug.
 */
import { z } from "zod";
import { cleanTextRefinement } from "~/lib/text";
import { isValidAnchor } from "./anchors";
import { MAX_ANSWER_LENGTH, MAX_QUESTION_LENGTH, MAX_SECTION_TITLE_LENGTH } from "./types";
import { formatCount } from "~/lib/format";

const id = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

export const FaqSectionInputSchema = z.object({
  title: z
    .string({ error: "Укажите название раздела" })
    .trim()
    .min(1, "Укажите название раздела")
    .max(MAX_SECTION_TITLE_LENGTH, `Название раздела — не длиннее ${MAX_SECTION_TITLE_LENGTH} символов`)
    .refine(...cleanTextRefinement()),
});
export type FaqSectionInput = z.output<typeof FaqSectionInputSchema>;

export const FaqEntryInputSchema = z.object({
  sectionId: id("Выберите раздел"),
  question: z
    .string({ error: "Укажите вопрос" })
    .trim()
    .min(1, "Укажите вопрос")
    .max(MAX_QUESTION_LENGTH, `Вопрос — не длиннее ${MAX_QUESTION_LENGTH} символов`)
    .refine(...cleanTextRefinement()),
  answer: z
    .string({ error: "Напишите ответ" })
    .trim()
    .min(1, "Напишите ответ")
    .max(MAX_ANSWER_LENGTH, `Ответ — не длиннее ${formatCount(MAX_ANSWER_LENGTH)} символов`)
    .refine(...cleanTextRefinement()),
  anchor: z
    .string()
    .trim()
    .toLowerCase()
    .refine((value) => value === "" || isValidAnchor(value), "Якорь — латинские буквы, цифры и дефис, до 80 символов")
    .optional(),
  published: z.boolean().optional(),
});
export type FaqEntryInput = z.output<typeof FaqEntryInputSchema>;

const direction = z.enum(["up", "down"], { error: "Неизвестное направление" });

export const CreateSectionFormSchema = FaqSectionInputSchema.extend({ intent: z.literal("section-create") });
export const RenameSectionFormSchema = FaqSectionInputSchema.extend({ intent: z.literal("section-rename"), sectionId: id("Раздел не найден") });
export const MoveSectionFormSchema = z.object({ intent: z.literal("section-move"), sectionId: id("Раздел не найден"), direction });
export const DeleteSectionFormSchema = z.object({ intent: z.literal("section-delete"), sectionId: id("Раздел не найден") });
export const MoveEntryFormSchema = z.object({ intent: z.literal("entry-move"), entryId: id("Вопрос не найден"), direction });
export const PublishEntryFormSchema = z.object({ intent: z.literal("entry-publish"), entryId: id("Вопрос не найден"), published: z.enum(["true", "false"]) });

/** Every form of /admin/faq, told apart by `intent`. */
export const AdminFaqActionSchema = z.discriminatedUnion("intent", [
  CreateSectionFormSchema,
  RenameSectionFormSchema,
  MoveSectionFormSchema,
  DeleteSectionFormSchema,
  MoveEntryFormSchema,
  PublishEntryFormSchema,
]);

export const EntryFormSchema = FaqEntryInputSchema.extend({ intent: z.literal("entry-save") });
export const DeleteEntryFormSchema = z.object({ intent: z.literal("entry-delete") });
/** The forms of /admin/faq/entries/{id} (and /new, which only saves). */
export const EntryPageActionSchema = z.discriminatedUnion("intent", [EntryFormSchema, DeleteEntryFormSchema]);
