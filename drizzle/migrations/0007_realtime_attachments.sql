CREATE TABLE "realtime_attachments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payload" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "realtime_attachments_created_at_idx" ON "realtime_attachments" USING btree ("created_at");