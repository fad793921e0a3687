CREATE TYPE "public"."render_job_status" AS ENUM('queued', 'running', 'succeeded', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."track_status" AS ENUM('uploaded', 'processing', 'ready', 'failed');--> statement-breakpoint
CREATE TABLE "event_arrangements" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"theme_id" uuid,
	"track_id" uuid,
	"music_start_seconds" real DEFAULT 0 NOT NULL,
	"music_fade_out_seconds" real DEFAULT 3 NOT NULL,
	"music_volume" real DEFAULT 0.8 NOT NULL,
	"resolution" text DEFAULT '1080p' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "published_media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"render_job_id" uuid,
	"version" integer NOT NULL,
	"video_key" text NOT NULL,
	"poster_key" text,
	"duration_seconds" real,
	"width" integer,
	"height" integer,
	"size_bytes" bigint,
	"published_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "render_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"requested_by_id" uuid,
	"status" "render_job_status" DEFAULT 'queued' NOT NULL,
	"publish_when_done" boolean DEFAULT false NOT NULL,
	"resolution" text DEFAULT '1080p' NOT NULL,
	"plan" jsonb,
	"plan_hash" text,
	"frames_total" integer DEFAULT 0 NOT NULL,
	"frames_done" integer DEFAULT 0 NOT NULL,
	"pieces_rendered" integer DEFAULT 0 NOT NULL,
	"pieces_reused" integer DEFAULT 0 NOT NULL,
	"eta_seconds" integer,
	"output_key" text,
	"poster_key" text,
	"duration_seconds" real,
	"size_bytes" bigint,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"cancel_requested_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "render_pieces" (
	"key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"files" jsonb NOT NULL,
	"frames" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "themes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text,
	"owner_id" uuid,
	"based_on_id" uuid,
	"name" text NOT NULL,
	"intro_url" text NOT NULL,
	"outro_url" text NOT NULL,
	"font_url" text NOT NULL,
	"font_color" text NOT NULL,
	"font_size" integer NOT NULL,
	"font_line_spacing" real NOT NULL,
	"text_box_color" text NOT NULL,
	"text_box_scale" real NOT NULL,
	"is_collage" boolean DEFAULT false NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"scenes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "themes_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "tracks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text,
	"owner_id" uuid,
	"title" text NOT NULL,
	"artist" text DEFAULT '' NOT NULL,
	"licence" text DEFAULT '' NOT NULL,
	"status" "track_status" DEFAULT 'uploaded' NOT NULL,
	"failure_reason" text,
	"original_key" text,
	"original_name" text DEFAULT '' NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"rendition_key" text,
	"duration_seconds" real,
	"loudness_lufs" real,
	"waveform" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracks_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "event_arrangements" ADD CONSTRAINT "event_arrangements_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_arrangements" ADD CONSTRAINT "event_arrangements_theme_id_themes_id_fk" FOREIGN KEY ("theme_id") REFERENCES "public"."themes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_arrangements" ADD CONSTRAINT "event_arrangements_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published_media" ADD CONSTRAINT "published_media_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published_media" ADD CONSTRAINT "published_media_render_job_id_render_jobs_id_fk" FOREIGN KEY ("render_job_id") REFERENCES "public"."render_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published_media" ADD CONSTRAINT "published_media_published_by_id_users_id_fk" FOREIGN KEY ("published_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "render_jobs" ADD CONSTRAINT "render_jobs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "render_jobs" ADD CONSTRAINT "render_jobs_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "themes" ADD CONSTRAINT "themes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "published_media_event_version_idx" ON "published_media" USING btree ("event_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "published_media_render_job_idx" ON "published_media" USING btree ("render_job_id") WHERE "published_media"."render_job_id" is not null;--> statement-breakpoint
CREATE INDEX "render_jobs_event_idx" ON "render_jobs" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "themes_owner_idx" ON "themes" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "tracks_owner_idx" ON "tracks" USING btree ("owner_id");