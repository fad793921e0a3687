ALTER TABLE "announcements" ADD COLUMN "link" text;--> statement-breakpoint
ALTER TABLE "event_reports" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_reports" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "event_reports" ADD COLUMN "resolved_by_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "taken_down_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "taken_down_reason" text;--> statement-breakpoint
ALTER TABLE "event_reports" ADD CONSTRAINT "event_reports_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_reports_open_idx" ON "event_reports" USING btree ("created_at") WHERE "event_reports"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "staff_actions_created_idx" ON "staff_actions" USING btree ("created_at");