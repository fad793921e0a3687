CREATE TYPE "public"."postcard_status" AS ENUM('draft', 'checkout', 'paid', 'sent', 'failed', 'refunded');--> statement-breakpoint
CREATE TABLE "local_postcard_mailings" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"to_address" jsonb NOT NULL,
	"front_url" text NOT NULL,
	"back_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "local_postcard_mailings_idempotencyKey_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "postcards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"creator_id" uuid NOT NULL,
	"template_id" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"address" jsonb,
	"status" "postcard_status" DEFAULT 'draft' NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"payment_provider" text,
	"checkout_session_id" text,
	"payment_intent_id" text,
	"print_provider" text,
	"print_id" text,
	"mailing_status" text,
	"expected_delivery" text,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "postcards_amount_check" CHECK ("postcards"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "postcards" ADD CONSTRAINT "postcards_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postcards" ADD CONSTRAINT "postcards_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "postcards_event_idx" ON "postcards" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "postcards_status_idx" ON "postcards" USING btree ("status","updated_at");