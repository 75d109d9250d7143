ALTER TABLE "posts" ADD COLUMN "cooked_html" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "cooked_version" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "cooked_html" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "cooked_version" text;--> statement-breakpoint
ALTER TABLE "wall_posts" ADD COLUMN "cooked_html" text;--> statement-breakpoint
ALTER TABLE "wall_posts" ADD COLUMN "cooked_version" text;