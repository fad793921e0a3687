CREATE TYPE "public"."event_status" AS ENUM('active', 'closed', 'delivered');--> statement-breakpoint
CREATE TYPE "public"."rsvp_status" AS ENUM('pending', 'invited', 'opened', 'contributed', 'declined');--> statement-breakpoint
CREATE TABLE "event_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"reporter_id" uuid,
	"reporter_ip" text,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" text NOT NULL,
	"creator_id" uuid NOT NULL,
	"occasion" text NOT NULL,
	"occasion_other" text,
	"guestbook" boolean DEFAULT false NOT NULL,
	"status" "event_status" DEFAULT 'active' NOT NULL,
	"private_key" text NOT NULL,
	"view_key" text NOT NULL,
	"prompts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"published_media" uuid,
	"paid" boolean DEFAULT false NOT NULL,
	"contributors_notified" boolean DEFAULT false NOT NULL,
	"via_email" boolean DEFAULT false NOT NULL,
	"via_sms" boolean DEFAULT false NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"thank_you_message" text DEFAULT '' NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"delivery_at" timestamp with time zone,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"analytics_client_id" text,
	"opened_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "events_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "events_eventId_unique" UNIQUE("event_id"),
	CONSTRAINT "events_privateKey_unique" UNIQUE("private_key"),
	CONSTRAINT "events_viewKey_unique" UNIQUE("view_key")
);
--> statement-breakpoint
CREATE TABLE "message_deliveries" (
	"key" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"to" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"event_id" uuid,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"url" text,
	"seen_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"email" text,
	"phone" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rsvps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"via_email" boolean DEFAULT true NOT NULL,
	"via_sms" boolean DEFAULT false NOT NULL,
	"status" "rsvp_status" DEFAULT 'pending' NOT NULL,
	"user_id" uuid,
	"invite_token_hash" text NOT NULL,
	"invite_sent_at" timestamp with time zone,
	"invite_opened_at" timestamp with time zone,
	"contributed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rsvps_inviteTokenHash_unique" UNIQUE("invite_token_hash")
);
--> statement-breakpoint
ALTER TABLE "event_reports" ADD CONSTRAINT "event_reports_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_reports" ADD CONSTRAINT "event_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rsvps" ADD CONSTRAINT "rsvps_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rsvps" ADD CONSTRAINT "rsvps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_reports_event_idx" ON "event_reports" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "events_creator_idx" ON "events" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "events_deadline_idx" ON "events" USING btree ("deadline");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "recipients_event_idx" ON "recipients" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "rsvps_event_idx" ON "rsvps" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rsvps_event_email_unique" ON "rsvps" USING btree ("event_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "rsvps_event_phone_unique" ON "rsvps" USING btree ("event_id","phone");