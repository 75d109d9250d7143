CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer,
	"target_user_id" integer,
	"reason" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_log_action_known" CHECK (action in ('role.grant', 'role.revoke', 'sanction.suspend', 'sanction.mute', 'sanction.lift', 'content.delete', 'content.restore', 'content.hide', 'post.close', 'post.open', 'post.move', 'post.pin', 'post.unpin', 'report.resolve', 'settings.registration', 'settings.rules', 'settings.background')),
	CONSTRAINT "audit_log_target_type_known" CHECK (target_type in ('user', 'post', 'comment', 'wall_post', 'message', 'setting')),
	CONSTRAINT "audit_log_reason_length" CHECK ("audit_log"."reason" is null or char_length("audit_log"."reason") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"reporter_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"target_user_id" integer NOT NULL,
	"reason" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"excerpt" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"resolved_by_id" integer,
	"resolved_at" timestamp with time zone,
	"resolution_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_target_type_known" CHECK (target_type in ('post', 'comment', 'wall_post', 'message', 'profile')),
	CONSTRAINT "reports_reason_known" CHECK (reason in ('spam', 'fraud', 'abuse', 'other')),
	CONSTRAINT "reports_status_known" CHECK (status in ('open', 'dismissed', 'actioned')),
	CONSTRAINT "reports_outcome_known" CHECK ("reports"."outcome" is null or outcome in ('dismiss', 'delete', 'suspend', 'mute')),
	CONSTRAINT "reports_details_length" CHECK (char_length("reports"."details") <= 1000),
	CONSTRAINT "reports_other_has_details" CHECK ("reports"."reason" <> 'other' or char_length("reports"."details") > 0),
	CONSTRAINT "reports_excerpt_length" CHECK (char_length("reports"."excerpt") <= 500),
	CONSTRAINT "reports_resolved" CHECK (("reports"."status" = 'open') = ("reports"."resolved_at" is null and "reports"."outcome" is null)),
	CONSTRAINT "reports_target_id_positive" CHECK ("reports"."target_id" > 0)
);
--> statement-breakpoint
CREATE TABLE "sanctions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"created_by_id" integer NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by_id" integer,
	"lift_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sanctions_kind_known" CHECK (kind in ('suspend', 'mute')),
	CONSTRAINT "sanctions_reason_length" CHECK (char_length("sanctions"."reason") between 1 and 1000),
	CONSTRAINT "sanctions_period" CHECK ("sanctions"."ends_at" is null or "sanctions"."ends_at" > "sanctions"."starts_at"),
	CONSTRAINT "sanctions_lifted" CHECK (("sanctions"."lifted_at" is null) = ("sanctions"."lifted_by_id" is null))
);
--> statement-breakpoint
CREATE TABLE "stats_daily" (
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"value" bigint NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stats_daily_day_metric_pk" PRIMARY KEY("day","metric"),
	CONSTRAINT "stats_daily_metric_known" CHECK (metric in ('signups', 'posts', 'comments', 'messages', 'deals_created', 'deals_completed', 'transfer_volume', 'deal_volume'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_known";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "deleted_by_id" integer;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "comments_closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "pinned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "deleted_by_moderator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wall_posts" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wall_posts" ADD COLUMN "deleted_by_id" integer;--> statement-breakpoint
ALTER TABLE "wall_posts" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "deleted_by_id" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "deal_id" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "claim_id" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "amount" bigint;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "subject_user_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions" ADD CONSTRAINT "sanctions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions" ADD CONSTRAINT "sanctions_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions" ADD CONSTRAINT "sanctions_lifted_by_id_users_id_fk" FOREIGN KEY ("lifted_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_user_idx" ON "audit_log" USING btree ("target_user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "reports_one_open_per_reporter" ON "reports" USING btree ("reporter_id","target_type","target_id") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reports_open_target_idx" ON "reports" USING btree ("target_type","target_id") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reports_open_created_idx" ON "reports" USING btree ("created_at") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reports_target_user_idx" ON "reports" USING btree ("target_user_id","id");--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id","id");--> statement-breakpoint
CREATE INDEX "sanctions_user_idx" ON "sanctions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "sanctions_unlifted_idx" ON "sanctions" USING btree ("kind","user_id") WHERE "sanctions"."lifted_at" is null;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_deleted_by_id_users_id_fk" FOREIGN KEY ("deleted_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wall_posts" ADD CONSTRAINT "wall_posts_deleted_by_id_users_id_fk" FOREIGN KEY ("deleted_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_deleted_by_id_users_id_fk" FOREIGN KEY ("deleted_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "posts_pinned_idx" ON "posts" USING btree ("pinned_at" DESC NULLS LAST) WHERE "posts"."pinned_at" is not null;--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "comments_created_at_idx" ON "comments" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "messages_created_at_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_transfers_created_at_idx" ON "ledger_transfers" USING btree ("created_at") WHERE "ledger_transfers"."kind" in ('transfer', 'hold');--> statement-breakpoint
CREATE INDEX "deals_created_at_idx" ON "deals" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "deals_completed_at_idx" ON "deals" USING btree ("closed_at") WHERE "deals"."state" = 'completed';--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_known" CHECK (type in ('POST_NEW', 'POST_NEW_VERIFIED', 'POST_MENTION', 'POST_LIKE', 'POST_COMMENT_NEW', 'POST_COMMENT_REPLY', 'POST_COMMENT_LIKE', 'POST_COMMENT_MENTION', 'WALL_POST_NEW', 'WALL_POST_LIKE', 'WALL_POST_MENTION', 'PRIVATE_CONVERSATION_MESSAGE_NEW', 'PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW', 'PUBLIC_CONVERSATION_MESSAGE_MENTION', 'TRANSFER_RECEIVED', 'HOLD_RELEASED', 'DEAL_OFFERED', 'DEAL_ACCEPTED', 'DEAL_FUNDED', 'DEAL_DELIVERED', 'DEAL_COMPLETED', 'DEAL_CANCELLED', 'DEAL_DISPUTED', 'DEAL_RESOLVED', 'CLAIM_FILED', 'CLAIM_DECIDED', 'REPORT_HANDLED', 'SANCTION_APPLIED'));