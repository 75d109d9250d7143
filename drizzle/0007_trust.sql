CREATE TABLE "claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"claimant_id" integer NOT NULL,
	"accused_id" integer NOT NULL,
	"deal_id" integer,
	"amount" bigint NOT NULL,
	"description" text NOT NULL,
	"evidence" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"compensation" bigint,
	"compensation_transfer_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claims_parties_distinct" CHECK ("claims"."claimant_id" <> "claims"."accused_id"),
	CONSTRAINT "claims_amount_positive" CHECK ("claims"."amount" > 0),
	CONSTRAINT "claims_status_known" CHECK ("claims"."status" in ('open', 'upheld', 'rejected')),
	CONSTRAINT "claims_decided" CHECK (("claims"."status" = 'open') = ("claims"."decided_at" is null)),
	CONSTRAINT "claims_description_length" CHECK (char_length("claims"."description") between 1 and 5000),
	CONSTRAINT "claims_compensation_positive" CHECK ("claims"."compensation" is null or "claims"."compensation" > 0)
);
--> statement-breakpoint
CREATE TABLE "deal_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"deal_id" integer NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"operation_id" integer NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deals" (
	"id" serial PRIMARY KEY NOT NULL,
	"buyer_id" integer NOT NULL,
	"seller_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"fee_payer" text NOT NULL,
	"buyer_fee" bigint NOT NULL,
	"seller_fee" bigint NOT NULL,
	"description" text NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"funded_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"auto_complete_at" timestamp with time zone,
	"cancel_requested_by" integer,
	"disputed_by" integer,
	"dispute_reason" text,
	"seller_share" bigint,
	"resolved_by" integer,
	"resolution_note" text,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deals_parties_distinct" CHECK ("deals"."buyer_id" <> "deals"."seller_id"),
	CONSTRAINT "deals_creator_is_party" CHECK ("deals"."created_by" in ("deals"."buyer_id", "deals"."seller_id")),
	CONSTRAINT "deals_amount_positive" CHECK ("deals"."amount" > 0),
	CONSTRAINT "deals_fee_shares" CHECK ("deals"."buyer_fee" >= 0 and "deals"."seller_fee" >= 0 and "deals"."buyer_fee" + "deals"."seller_fee" = "deals"."fee"),
	CONSTRAINT "deals_seller_fee_below_amount" CHECK ("deals"."seller_fee" < "deals"."amount"),
	CONSTRAINT "deals_fee_payer_known" CHECK ("deals"."fee_payer" in ('buyer', 'seller', 'split')),
	CONSTRAINT "deals_state_known" CHECK ("deals"."state" in ('created', 'accepted', 'funded', 'delivered', 'completed', 'cancelled', 'disputed', 'refunded', 'split')),
	CONSTRAINT "deals_seller_share_range" CHECK ("deals"."seller_share" is null or ("deals"."seller_share" > 0 and "deals"."seller_share" < "deals"."amount")),
	CONSTRAINT "deals_description_length" CHECK (char_length("deals"."description") between 1 and 5000)
);
--> statement-breakpoint
CREATE TABLE "deposit_withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"operation_id" integer NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"completed_amount" bigint,
	"transfer_id" integer,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_withdrawals_amount_positive" CHECK ("deposit_withdrawals"."amount" > 0),
	CONSTRAINT "deposit_withdrawals_state_known" CHECK ("deposit_withdrawals"."state" in ('pending', 'completed', 'cancelled')),
	CONSTRAINT "deposit_withdrawals_closed" CHECK (("deposit_withdrawals"."state" = 'pending') = ("deposit_withdrawals"."closed_at" is null))
);
--> statement-breakpoint
ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_kind_known";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "scammer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_claimant_id_users_id_fk" FOREIGN KEY ("claimant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_accused_id_users_id_fk" FOREIGN KEY ("accused_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_compensation_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("compensation_transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_transitions" ADD CONSTRAINT "deal_transitions_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_transitions" ADD CONSTRAINT "deal_transitions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_transitions" ADD CONSTRAINT "deal_transitions_operation_id_ledger_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."ledger_operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_cancel_requested_by_users_id_fk" FOREIGN KEY ("cancel_requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_disputed_by_users_id_fk" FOREIGN KEY ("disputed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_withdrawals" ADD CONSTRAINT "deposit_withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_withdrawals" ADD CONSTRAINT "deposit_withdrawals_operation_id_ledger_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."ledger_operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_withdrawals" ADD CONSTRAINT "deposit_withdrawals_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claims_one_open_per_pair" ON "claims" USING btree ("claimant_id","accused_id") WHERE "claims"."status" = 'open';--> statement-breakpoint
CREATE INDEX "claims_accused_idx" ON "claims" USING btree ("accused_id","id");--> statement-breakpoint
CREATE INDEX "claims_claimant_idx" ON "claims" USING btree ("claimant_id","id");--> statement-breakpoint
CREATE INDEX "claims_open_idx" ON "claims" USING btree ("id") WHERE "claims"."status" = 'open';--> statement-breakpoint
CREATE INDEX "claims_upheld_idx" ON "claims" USING btree ("decided_at" DESC NULLS LAST) WHERE "claims"."status" = 'upheld';--> statement-breakpoint
CREATE INDEX "deal_transitions_deal_idx" ON "deal_transitions" USING btree ("deal_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "deal_transitions_operation_key" ON "deal_transitions" USING btree ("operation_id");--> statement-breakpoint
CREATE INDEX "deals_buyer_idx" ON "deals" USING btree ("buyer_id","id");--> statement-breakpoint
CREATE INDEX "deals_seller_idx" ON "deals" USING btree ("seller_id","id");--> statement-breakpoint
CREATE INDEX "deals_auto_complete_idx" ON "deals" USING btree ("auto_complete_at") WHERE "deals"."state" = 'delivered';--> statement-breakpoint
CREATE INDEX "deals_disputed_idx" ON "deals" USING btree ("id") WHERE "deals"."state" = 'disputed';--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_withdrawals_one_pending" ON "deposit_withdrawals" USING btree ("user_id") WHERE "deposit_withdrawals"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "deposit_withdrawals_due_idx" ON "deposit_withdrawals" USING btree ("available_at") WHERE "deposit_withdrawals"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "deposit_withdrawals_user_idx" ON "deposit_withdrawals" USING btree ("user_id","id");--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_kind_known" CHECK ("ledger_transfers"."kind" in ('topup', 'transfer', 'hold', 'release', 'deposit', 'withdrawal', 'escrow', 'payout', 'refund', 'fee', 'compensation'));