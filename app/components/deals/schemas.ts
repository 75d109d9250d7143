/**
 * The deal page forms as the browser posts them (issue 5 item 4): the domain's form schemas
 * (app/domain/deals/schemas.ts) with the page's one idempotency field, `key`
 * (<IdempotencyKeyInput>, app/lib/idempotency.ts). Pure: Conform uses them in the browser too.
 */
import { CreateDealFormSchema, DealActionFormSchema } from "~/domain/deals/schemas";
import { IdempotencyKeySchema } from "~/lib/idempotency";

/** «Новая сделка» on /services/guarantor. */
export const NewDealPageSchema = CreateDealFormSchema.omit({ idempotencyKey: true }).extend({ key: IdempotencyKeySchema });

/** The buttons, the dispute form and the resolution form of /services/guarantor/deals/{id}. */
export const DealActionPageSchema = DealActionFormSchema.omit({ idempotencyKey: true }).extend({ key: IdempotencyKeySchema });
