ALTER TABLE "media" ADD COLUMN "auto_trim_start" real;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "auto_trim_end" real;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "trim_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "advice" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "focus_x" real;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "focus_y" real;--> statement-breakpoint
-- A trim set before clips were analysed was the organiser's: it stays theirs.
UPDATE "media" SET "trim_chosen" = true WHERE "trim_start" <> 0 OR "trim_end" IS NOT NULL;