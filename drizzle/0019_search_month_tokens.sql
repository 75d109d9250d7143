DROP INDEX "posts_search_idx";--> statement-breakpoint
CREATE INDEX "posts_search_idx" ON "posts" USING gin (("search_vector" || array_to_tsvector(array['#' || (extract(year from "created_at" at time zone 'UTC') * 100 + extract(month from "created_at" at time zone 'UTC'))::int::text])));--> statement-breakpoint
ANALYZE "posts";