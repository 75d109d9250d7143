CREATE TABLE "assistant_conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assistant_conversations_title_length" CHECK (char_length("assistant_conversations"."title") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "assistant_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"role" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'complete' NOT NULL,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assistant_messages_role_known" CHECK ("assistant_messages"."role" in ('user', 'assistant')),
	CONSTRAINT "assistant_messages_status_known" CHECK ("assistant_messages"."status" in ('complete', 'streaming', 'failed')),
	CONSTRAINT "assistant_messages_failed_code" CHECK (("assistant_messages"."status" = 'failed') = ("assistant_messages"."error_code" is not null))
);
--> statement-breakpoint
CREATE TABLE "assistant_usage" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "assistant_usage_user_id_day_pk" PRIMARY KEY("user_id","day"),
	CONSTRAINT "assistant_usage_requests" CHECK ("assistant_usage"."requests" >= 0)
);
--> statement-breakpoint
CREATE TABLE "faq_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"section_id" integer NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"anchor" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "faq_entries_question_length" CHECK (char_length(btrim("faq_entries"."question")) between 1 and 300),
	CONSTRAINT "faq_entries_answer_length" CHECK (char_length("faq_entries"."answer") between 1 and 20000),
	CONSTRAINT "faq_entries_anchor_format" CHECK ("faq_entries"."anchor" ~ '^[a-z0-9][a-z0-9-]{0,79}$')
);
--> statement-breakpoint
CREATE TABLE "faq_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "faq_sections_title_length" CHECK (char_length("faq_sections"."title") between 1 and 200),
	CONSTRAINT "faq_sections_slug_format" CHECK ("faq_sections"."slug" ~ '^[a-z0-9][a-z0-9-]{0,79}$')
);
--> statement-breakpoint
CREATE TABLE "music_plays" (
	"track_id" integer NOT NULL,
	"listener" text NOT NULL,
	"window" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "music_plays_track_id_listener_window_pk" PRIMARY KEY("track_id","listener","window")
);
--> statement-breakpoint
CREATE TABLE "music_tracks" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"artist" text DEFAULT '' NOT NULL,
	"duration_ms" integer NOT NULL,
	"audio_key" text NOT NULL,
	"audio_type" text NOT NULL,
	"audio_size" integer NOT NULL,
	"cover_key" text,
	"position" integer DEFAULT 0 NOT NULL,
	"play_count" integer DEFAULT 0 NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "music_tracks_title_length" CHECK (char_length("music_tracks"."title") between 1 and 200),
	CONSTRAINT "music_tracks_artist_length" CHECK (char_length("music_tracks"."artist") <= 200),
	CONSTRAINT "music_tracks_duration" CHECK ("music_tracks"."duration_ms" > 0),
	CONSTRAINT "music_tracks_audio_type" CHECK ("music_tracks"."audio_type" in ('audio/mpeg', 'audio/ogg', 'audio/mp4', 'audio/flac')),
	CONSTRAINT "music_tracks_audio_size" CHECK ("music_tracks"."audio_size" between 1 and 31457280),
	CONSTRAINT "music_tracks_play_count" CHECK ("music_tracks"."play_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "assistant_conversations" ADD CONSTRAINT "assistant_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_messages" ADD CONSTRAINT "assistant_messages_conversation_id_assistant_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."assistant_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_usage" ADD CONSTRAINT "assistant_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faq_entries" ADD CONSTRAINT "faq_entries_section_id_faq_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."faq_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faq_entries" ADD CONSTRAINT "faq_entries_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "music_plays" ADD CONSTRAINT "music_plays_track_id_music_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."music_tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "music_tracks" ADD CONSTRAINT "music_tracks_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assistant_conversations_user_idx" ON "assistant_conversations" USING btree ("user_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "assistant_messages_conversation_idx" ON "assistant_messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "faq_entries_anchor_key" ON "faq_entries" USING btree ("anchor");--> statement-breakpoint
CREATE INDEX "faq_entries_section_idx" ON "faq_entries" USING btree ("section_id","position","id");--> statement-breakpoint
CREATE UNIQUE INDEX "faq_sections_slug_key" ON "faq_sections" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "music_plays_created_idx" ON "music_plays" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "music_tracks_audio_key" ON "music_tracks" USING btree ("audio_key");--> statement-breakpoint
CREATE INDEX "music_tracks_position_idx" ON "music_tracks" USING btree ("position","id");