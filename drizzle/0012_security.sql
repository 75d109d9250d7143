DROP INDEX "users_api_token_key";--> statement-breakpoint
-- Each session gets its own realtime token (docs/decisions/0017-one-token-per-session.md): existing sessions get a random one
-- (two v4 UUIDs from the server's strong random source, 244 random bits, in hex).
ALTER TABLE "sessions" ADD COLUMN "api_token" text;--> statement-breakpoint
UPDATE "sessions" SET "api_token" = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "api_token" SET NOT NULL;--> statement-breakpoint
-- Filled by the application at start-up (backfillUsernameSkeletons): the confusables data is not in SQL.
ALTER TABLE "users" ADD COLUMN "username_skeleton" text;--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_api_token_key" ON "sessions" USING btree ("api_token");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_skeleton_key" ON "users" USING btree ("username_skeleton");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "api_token";
