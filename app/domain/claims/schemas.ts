/**
 * Claim input (issue 5; docs/product/claims.md), shared by the domain, the /api routes
 * and Conform in the browser. Two layers: the *Input schemas take what the domain and JSON
 * callers pass (amounts in kopecks, evidence as an array); the *Form schemas take what a page
 * form posts (amounts in roubles «1 234,50», evidence one link per line, a deal number «#12»)
 * and turn it into the same shape.
 */
import { z } from "zod";
import { isValidAmount } from "~/domain/ledger/money";
import { roublesField } from "~/domain/ledger/money-schemas";
import { isValidId } from "~/lib/ids";
import { cleanTextRefinement } from "~/lib/text";
import { CLAIM_LIMITS, isEvidenceLink } from "./types";
import { formatCount } from "~/lib/format";

const AMOUNT_MESSAGE = "Сумма — от 0,01 до 10 000 000 ₽";
const COMPENSATION_MESSAGE = "Компенсация — от 0,01 ₽ и не больше суммы претензии";
const DEAL_ID_MESSAGE = "Номер сделки — целое число";

const accusedField = z.union(
  [
    z
      .string()
      .trim()
      .transform((value) => value.replace(/^@/u, ""))
      .pipe(
        z
          .string()
          .min(1, "Укажите, на кого претензия")
          .max(64, "Такого участника нет")
          .refine(...cleanTextRefinement()),
      ),
    z.number().int().positive(),
  ],
  { error: "Укажите, на кого претензия" },
);

const descriptionField = z
  .string({ error: "Опишите, что произошло" })
  .trim()
  .min(CLAIM_LIMITS.descriptionMin, `Описание — не короче ${CLAIM_LIMITS.descriptionMin} символов`)
  .max(CLAIM_LIMITS.descriptionMax, `Описание — не длиннее ${formatCount(CLAIM_LIMITS.descriptionMax)} символов`)
  .refine(...cleanTextRefinement());

const evidenceLink = z
  .string()
  .refine(...cleanTextRefinement())
  .trim()
  .max(CLAIM_LIMITS.evidenceLinkMax, `Ссылка — не длиннее ${CLAIM_LIMITS.evidenceLinkMax} символов`)
  .refine(isEvidenceLink, "Доказательства — ссылки, начинающиеся с http:// или https://");

const evidenceList = z
  .array(evidenceLink, { error: "Доказательства — список ссылок" })
  .max(CLAIM_LIMITS.evidenceMax, `Не больше ${CLAIM_LIMITS.evidenceMax} ссылок`);

const noteField = z
  .string({ error: "Напишите решение" })
  .trim()
  .min(1, "Напишите причину решения")
  .max(CLAIM_LIMITS.noteMax, `Решение — не длиннее ${formatCount(CLAIM_LIMITS.noteMax)} символов`)
  .refine(...cleanTextRefinement());

/** fileClaim's input: accused by username («@» optional) or id; amount in kopecks; evidence links; an optional deal id. */
export const FileClaimInputSchema = z.object({
  accused: accusedField,
  amount: z.number({ error: AMOUNT_MESSAGE }).refine(isValidAmount, AMOUNT_MESSAGE),
  description: descriptionField,
  evidence: evidenceList.default([]),
  dealId: z.number({ error: DEAL_ID_MESSAGE }).refine(isValidId, DEAL_ID_MESSAGE).nullish(),
});
export type FileClaimInput = z.input<typeof FileClaimInputSchema>;

/** decideClaim's input: uphold or reject, the reason, and compensation in kopecks (uphold only). */
export const DecideClaimInputSchema = z.object({
  decision: z.enum(["uphold", "reject"], { error: "Выберите решение" }),
  note: noteField,
  compensation: z.number({ error: COMPENSATION_MESSAGE }).refine(isValidAmount, COMPENSATION_MESSAGE).nullish(),
});
export type DecideClaimInput = z.input<typeof DecideClaimInputSchema>;

/** The form of /claims/new: amount in roubles, evidence one link per line, the deal as «12» or «#12». */
export const FileClaimFormSchema = z.object({
  accused: z
    .string({ error: "Укажите, на кого претензия" })
    .trim()
    .transform((value) => value.replace(/^@/u, ""))
    .pipe(
      z
        .string()
        .min(1, "Укажите, на кого претензия")
        .max(64, "Такого участника нет")
        .refine(...cleanTextRefinement()),
    ),
  amount: roublesField({ message: AMOUNT_MESSAGE }),
  description: descriptionField,
  evidence: z
    .string()
    .optional()
    .transform((value) => (value ?? "").split(/\s+/u).filter((line) => line.length > 0))
    .pipe(evidenceList),
  dealId: z
    .string()
    .trim()
    .regex(/^(№|#)?\s*\d{1,9}$/u, "Номер сделки — число, например 12")
    .transform((value) => Number(value.replace(/\D/gu, "")))
    .optional(),
});

/** The moderator's decision form on /claims/{id}: compensation in roubles (optional), the idempotency key from the loader. */
export const DecideClaimFormSchema = z.object({
  decision: z.enum(["uphold", "reject"], { error: "Выберите решение" }),
  note: noteField,
  compensation: roublesField({ message: COMPENSATION_MESSAGE }).optional(),
  key: z.string({ error: "Форма устарела. Обновите страницу." }).min(1),
});
