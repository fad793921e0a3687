ALTER TABLE "themes" ADD COLUMN "is_premium" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "is_premium" boolean DEFAULT false NOT NULL;