ALTER TABLE "render_pieces" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "render_pieces" ADD COLUMN "render_seconds" real;--> statement-breakpoint
ALTER TABLE "render_pieces" ADD COLUMN "rendered_frames" integer;--> statement-breakpoint
CREATE INDEX "render_pieces_created_idx" ON "render_pieces" USING btree ("created_at");