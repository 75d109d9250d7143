CREATE TABLE "ad_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"advertiser_id" integer NOT NULL,
	"slot_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text NOT NULL,
	"image_key" text,
	"days" integer NOT NULL,
	"price_per_day" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_campaigns_state_known" CHECK ("ad_campaigns"."state" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "ad_campaigns_days_range" CHECK ("ad_campaigns"."days" between 1 and 30),
	CONSTRAINT "ad_campaigns_amount" CHECK ("ad_campaigns"."price_per_day" > 0 and "ad_campaigns"."amount" = "ad_campaigns"."days" * "ad_campaigns"."price_per_day"),
	CONSTRAINT "ad_campaigns_link_http" CHECK ("ad_campaigns"."link" ~* '^https?://'),
	CONSTRAINT "ad_campaigns_reviewed" CHECK (("ad_campaigns"."state" = 'pending') = ("ad_campaigns"."reviewed_at" is null)),
	CONSTRAINT "ad_campaigns_rejected_reason" CHECK (("ad_campaigns"."state" = 'rejected') = ("ad_campaigns"."rejection_reason" is not null)),
	CONSTRAINT "ad_campaigns_approved_period" CHECK (("ad_campaigns"."state" = 'approved') = ("ad_campaigns"."starts_at" is not null and "ad_campaigns"."ends_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "ad_daily_stats" (
	"campaign_id" integer NOT NULL,
	"day" date NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ad_daily_stats_campaign_id_day_pk" PRIMARY KEY("campaign_id","day"),
	CONSTRAINT "ad_daily_stats_counts" CHECK ("ad_daily_stats"."impressions" >= 0 and "ad_daily_stats"."clicks" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ad_slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"placement" text NOT NULL,
	"feed_position" integer,
	"price_per_day" bigint NOT NULL,
	"capacity" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_slots_placement_known" CHECK ("ad_slots"."placement" in ('feed', 'sidebar', 'header')),
	CONSTRAINT "ad_slots_feed_position" CHECK (("ad_slots"."placement" = 'feed') = ("ad_slots"."feed_position" is not null) and coalesce("ad_slots"."feed_position", 0) >= 0),
	CONSTRAINT "ad_slots_price_positive" CHECK ("ad_slots"."price_per_day" > 0),
	CONSTRAINT "ad_slots_capacity_positive" CHECK ("ad_slots"."capacity" > 0)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_known";--> statement-breakpoint
ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_kind_known";--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_advertiser_id_users_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_slot_id_ad_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."ad_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_daily_stats" ADD CONSTRAINT "ad_daily_stats_campaign_id_ad_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ad_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_campaigns_advertiser_idx" ON "ad_campaigns" USING btree ("advertiser_id","id");--> statement-breakpoint
CREATE INDEX "ad_campaigns_running_idx" ON "ad_campaigns" USING btree ("slot_id","ends_at") WHERE "ad_campaigns"."state" = 'approved';--> statement-breakpoint
CREATE INDEX "ad_campaigns_pending_idx" ON "ad_campaigns" USING btree ("id") WHERE "ad_campaigns"."state" = 'pending';--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_known" CHECK (type in ('POST_NEW', 'POST_NEW_VERIFIED', 'POST_MENTION', 'POST_LIKE', 'POST_COMMENT_NEW', 'POST_COMMENT_REPLY', 'POST_COMMENT_LIKE', 'POST_COMMENT_MENTION', 'WALL_POST_NEW', 'WALL_POST_LIKE', 'WALL_POST_MENTION', 'PRIVATE_CONVERSATION_MESSAGE_NEW', 'PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW', 'PUBLIC_CONVERSATION_MESSAGE_MENTION', 'TRANSFER_RECEIVED', 'HOLD_RELEASED', 'DEAL_OFFERED', 'DEAL_ACCEPTED', 'DEAL_FUNDED', 'DEAL_DELIVERED', 'DEAL_COMPLETED', 'DEAL_CANCELLED', 'DEAL_DISPUTED', 'DEAL_RESOLVED', 'CLAIM_FILED', 'CLAIM_DECIDED', 'REPORT_HANDLED', 'SANCTION_APPLIED', 'AD_APPROVED', 'AD_REJECTED'));--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_kind_known" CHECK ("ledger_transfers"."kind" in ('topup', 'transfer', 'hold', 'release', 'deposit', 'withdrawal', 'escrow', 'payout', 'refund', 'fee', 'compensation', 'ad_hold', 'ad_release', 'ad_payment'));--> statement-breakpoint
-- The slots on sale from the start (docs/product/pages.md#ads); admins may change them later.
INSERT INTO "ad_slots" ("name", "placement", "feed_position", "price_per_day", "capacity") VALUES
	('Баннер в ленте', 'feed', 3, 30000, 2),
	('Боковая панель', 'sidebar', NULL, 15000, 3),
	('Шапка сайта', 'header', NULL, 50000, 1);
