ALTER TYPE "public"."gift_contribution_status" ADD VALUE 'abandoned';--> statement-breakpoint
ALTER TYPE "public"."tree_contribution_status" ADD VALUE 'abandoned';--> statement-breakpoint
ALTER TYPE "public"."mail_order_status" ADD VALUE 'abandoned';--> statement-breakpoint
CREATE TABLE "print_mail_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"object_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "postcards" ADD COLUMN "checkout_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_orders" ADD COLUMN "checkout_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "postcards_print_idx" ON "postcards" USING btree ("print_id");