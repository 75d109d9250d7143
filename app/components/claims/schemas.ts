/**
 * The claim page forms as the browser posts them (docs/product/claims.md): the domain's
 * form schemas (app/domain/claims/schemas.ts) with the page's one idempotency field, `key`
 * (<IdempotencyKeyInput>, the same rule as the ledger's). Pure: Conform uses them in the browser too.
 */
import { DecideClaimFormSchema, FileClaimFormSchema } from "~/domain/claims/schemas";
import { z } from "zod";
import { IdempotencyKeySchema } from "~/lib/idempotency";

/** /claims/new: the claim and the key the loader made (a resubmitted form files one claim). */
export const FileClaimPageSchema = FileClaimFormSchema.extend({ key: IdempotencyKeySchema });

/** The moderator's decision on /claims/{id}; `confirmed=1` on the confirmation step of a compensation (docs/product/interface.md#money-confirmations). */
export const DecideClaimPageSchema = DecideClaimFormSchema.extend({ key: IdempotencyKeySchema, confirmed: z.literal("1").optional() });
