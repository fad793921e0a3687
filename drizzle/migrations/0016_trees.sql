CREATE TYPE "public"."tree_contribution_status" AS ENUM('pending', 'paid', 'planted', 'failed', 'refunded');--> statement-breakpoint
CREATE TABLE "tree_contributions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_amount" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"project" text NOT NULL,
	"status" "tree_contribution_status" DEFAULT 'pending' NOT NULL,
	"provider" text,
	"checkout_session_id" text,
	"payment_intent_id" text,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"planting_id" text,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"planted_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "tree_contributions_quantity_check" CHECK ("tree_contributions"."quantity" between 1 and 100),
	CONSTRAINT "tree_contributions_amount_check" CHECK ("tree_contributions"."amount" = "tree_contributions"."quantity" * "tree_contributions"."unit_amount" and "tree_contributions"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "tree_contributions" ADD CONSTRAINT "tree_contributions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tree_contributions_event_idx" ON "tree_contributions" USING btree ("event_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "tree_contributions_session_unique" ON "tree_contributions" USING btree ("checkout_session_id");