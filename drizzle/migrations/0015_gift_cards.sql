CREATE TYPE "public"."gift_contribution_status" AS ENUM('pending', 'paid', 'refunded');--> statement-breakpoint
CREATE TYPE "public"."gift_status" AS ENUM('collecting', 'ordering', 'delivered', 'failed', 'refunded');--> statement-breakpoint
CREATE TABLE "gift_contributions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gift_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" "gift_contribution_status" DEFAULT 'pending' NOT NULL,
	"provider" text,
	"checkout_session_id" text,
	"payment_intent_id" text,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "gift_contributions_amount_check" CHECK ("gift_contributions"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "gifts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"country" text NOT NULL,
	"product_id" text NOT NULL,
	"product_name" text NOT NULL,
	"currency" text NOT NULL,
	"min_amount" integer NOT NULL,
	"max_amount" integer NOT NULL,
	"target_amount" integer,
	"status" "gift_status" DEFAULT 'collecting' NOT NULL,
	"order_id" text,
	"claim_url" text,
	"amount_paid_out" integer DEFAULT 0 NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gifts_amounts_check" CHECK ("gifts"."min_amount" > 0 and "gifts"."max_amount" >= "gifts"."min_amount")
);
--> statement-breakpoint
CREATE TABLE "local_gift_card_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"product_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "local_gift_card_orders_externalId_unique" UNIQUE("external_id")
);
--> statement-breakpoint
ALTER TABLE "gift_contributions" ADD CONSTRAINT "gift_contributions_gift_id_gifts_id_fk" FOREIGN KEY ("gift_id") REFERENCES "public"."gifts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gift_contributions_gift_idx" ON "gift_contributions" USING btree ("gift_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "gift_contributions_session_unique" ON "gift_contributions" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_event_unique" ON "gifts" USING btree ("event_id");