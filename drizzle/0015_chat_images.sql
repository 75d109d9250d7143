ALTER TABLE "messages" DROP CONSTRAINT "messages_body_length";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "image_url" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "image_width" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "image_height" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_image_size" CHECK (("messages"."image_url" is null) = ("messages"."image_width" is null) and ("messages"."image_url" is null) = ("messages"."image_height" is null) and coalesce("messages"."image_width" > 0 and "messages"."image_height" > 0, true));--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_body_length" CHECK ("messages"."deleted_at" is not null or (char_length("messages"."body") <= 4000 and (char_length("messages"."body") >= 1 or "messages"."image_url" is not null)));