CREATE TYPE "public"."media_kind" AS ENUM('photo', 'video');--> statement-breakpoint
CREATE TYPE "public"."media_purpose" AS ENUM('contribution', 'thank_you');--> statement-breakpoint
CREATE TYPE "public"."media_status" AS ENUM('uploaded', 'processing', 'ready', 'failed');--> statement-breakpoint
CREATE TYPE "public"."media_version_kind" AS ENUM('upscale', 'edit');--> statement-breakpoint
CREATE TYPE "public"."media_version_status" AS ENUM('pending_review', 'active', 'rejected', 'replaced');--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"media_uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"purpose" "media_purpose" DEFAULT 'contribution' NOT NULL,
	"kind" "media_kind",
	"status" "media_status" DEFAULT 'uploaded' NOT NULL,
	"failure_reason" text,
	"contributor_name" text DEFAULT '' NOT NULL,
	"caption" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"trim_start" real DEFAULT 0 NOT NULL,
	"trim_end" real,
	"hidden" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"uploader_id" uuid,
	"rsvp_id" uuid,
	"upload_token_hash" text,
	"upload_id" text,
	"original_key" text NOT NULL,
	"original_name" text DEFAULT '' NOT NULL,
	"mime_type" text DEFAULT 'application/octet-stream' NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"width" integer,
	"height" integer,
	"duration_seconds" real,
	"rotation" integer DEFAULT 0 NOT NULL,
	"has_audio" boolean DEFAULT false NOT NULL,
	"rendition_key" text,
	"poster_key" text,
	"thumbnails" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"active_version_id" uuid,
	"approved" boolean,
	"duplicated_from" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_mediaUuid_unique" UNIQUE("media_uuid"),
	CONSTRAINT "media_uploadId_unique" UNIQUE("upload_id")
);
--> statement-breakpoint
CREATE TABLE "media_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"media_id" uuid NOT NULL,
	"kind" "media_version_kind" NOT NULL,
	"status" "media_version_status" NOT NULL,
	"key" text NOT NULL,
	"edits" jsonb,
	"width" integer,
	"height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_rsvp_id_rsvps_id_fk" FOREIGN KEY ("rsvp_id") REFERENCES "public"."rsvps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_versions" ADD CONSTRAINT "media_versions_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_event_idx" ON "media" USING btree ("event_id","position");--> statement-breakpoint
CREATE INDEX "media_event_live_idx" ON "media" USING btree ("event_id") WHERE "media"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "media_versions_media_idx" ON "media_versions" USING btree ("media_id");