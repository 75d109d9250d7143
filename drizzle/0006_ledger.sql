CREATE TABLE "ledger_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer,
	"reference" text,
	"balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_known" CHECK ("ledger_accounts"."kind" in ('member_available', 'member_deposit', 'member_held', 'escrow', 'platform_fee', 'platform_funding')),
	CONSTRAINT "ledger_accounts_member_owner" CHECK (("ledger_accounts"."kind" like 'member\_%') = ("ledger_accounts"."user_id" is not null)),
	CONSTRAINT "ledger_accounts_escrow_reference" CHECK (("ledger_accounts"."kind" = 'escrow') = ("ledger_accounts"."reference" is not null)),
	CONSTRAINT "ledger_accounts_balance_non_negative" CHECK ("ledger_accounts"."kind" = 'platform_funding' or "ledger_accounts"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_holds" (
	"id" serial PRIMARY KEY NOT NULL,
	"operation_id" integer NOT NULL,
	"transfer_id" integer NOT NULL,
	"sender_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"release_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"release_transfer_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_holds_amount_positive" CHECK ("ledger_holds"."amount" > 0),
	CONSTRAINT "ledger_holds_released_together" CHECK (("ledger_holds"."released_at" is null) = ("ledger_holds"."release_transfer_id" is null))
);
--> statement-breakpoint
CREATE TABLE "ledger_operations" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"fingerprint" text NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_operations_key_length" CHECK (char_length("ledger_operations"."idempotency_key") between 1 and 200)
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"operation_id" integer NOT NULL,
	"kind" text NOT NULL,
	"debit_account_id" integer NOT NULL,
	"credit_account_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"debit_balance_after" bigint NOT NULL,
	"credit_balance_after" bigint NOT NULL,
	"memo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transfers_amount_positive" CHECK ("ledger_transfers"."amount" > 0),
	CONSTRAINT "ledger_transfers_distinct_accounts" CHECK ("ledger_transfers"."debit_account_id" <> "ledger_transfers"."credit_account_id"),
	CONSTRAINT "ledger_transfers_kind_known" CHECK ("ledger_transfers"."kind" in ('topup', 'transfer', 'hold', 'release')),
	CONSTRAINT "ledger_transfers_memo_length" CHECK ("ledger_transfers"."memo" is null or char_length("ledger_transfers"."memo") <= 500)
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_operation_id_ledger_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."ledger_operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_release_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("release_transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_operations" ADD CONSTRAINT "ledger_operations_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_operation_id_ledger_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."ledger_operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_debit_account_id_ledger_accounts_id_fk" FOREIGN KEY ("debit_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_credit_account_id_ledger_accounts_id_fk" FOREIGN KEY ("credit_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_kind_user_key" ON "ledger_accounts" USING btree ("kind","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_escrow_reference_key" ON "ledger_accounts" USING btree ("reference") WHERE "ledger_accounts"."kind" = 'escrow';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_one_platform" ON "ledger_accounts" USING btree ("kind") WHERE "ledger_accounts"."kind" in ('platform_fee', 'platform_funding');--> statement-breakpoint
CREATE INDEX "ledger_holds_due_idx" ON "ledger_holds" USING btree ("release_at") WHERE "ledger_holds"."released_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_holds_sender_idx" ON "ledger_holds" USING btree ("sender_id","id");--> statement-breakpoint
CREATE INDEX "ledger_holds_recipient_idx" ON "ledger_holds" USING btree ("recipient_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_holds_release_transfer_key" ON "ledger_holds" USING btree ("release_transfer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_operations_actor_key" ON "ledger_operations" USING btree ("actor_id","idempotency_key") WHERE "ledger_operations"."actor_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_operations_system_key" ON "ledger_operations" USING btree ("idempotency_key") WHERE "ledger_operations"."actor_id" is null;--> statement-breakpoint
CREATE INDEX "ledger_transfers_debit_idx" ON "ledger_transfers" USING btree ("debit_account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_credit_idx" ON "ledger_transfers" USING btree ("credit_account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_operation_idx" ON "ledger_transfers" USING btree ("operation_id");--> statement-breakpoint
-- Hand-written: the platform's two accounts, and transfers that can never change (docs/product/money.md#invariants).
INSERT INTO "ledger_accounts" ("kind") VALUES ('platform_fee'), ('platform_funding');--> statement-breakpoint
CREATE FUNCTION "ledger_transfers_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_transfers are immutable: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
-- Row changes are refused; TRUNCATE (wiping a whole demo database, `npm run db:reseed`) stays an operator's act.
CREATE TRIGGER "ledger_transfers_no_update_delete" BEFORE UPDATE OR DELETE ON "ledger_transfers" FOR EACH ROW EXECUTE FUNCTION "ledger_transfers_immutable"();
