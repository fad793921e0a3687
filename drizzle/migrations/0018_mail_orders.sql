CREATE TYPE "public"."mail_order_kind" AS ENUM('dvd', 'keepsake');--> statement-breakpoint
CREATE TYPE "public"."mail_order_status" AS ENUM('awaiting_payment', 'paid', 'received', 'printed', 'shipped', 'failed', 'refunded');--> statement-breakpoint
CREATE TABLE "local_fulfilment_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"service" "mail_order_kind" NOT NULL,
	"external_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"address" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" "mail_order_kind" NOT NULL,
	"product_key" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_amount" integer NOT NULL,
	"shipping_amount" integer NOT NULL,
	"total_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"address" jsonb NOT NULL,
	"published_media_id" uuid NOT NULL,
	"file_token" text NOT NULL,
	"status" "mail_order_status" DEFAULT 'awaiting_payment' NOT NULL,
	"provider" text,
	"checkout_session_id" text,
	"payment_intent_id" text,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"vendor" text,
	"vendor_order_id" text,
	"tracking_number" text,
	"tracking_url" text,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_orders_quantity_check" CHECK ("mail_orders"."quantity" between 1 and 10),
	CONSTRAINT "mail_orders_amounts_check" CHECK ("mail_orders"."unit_amount" > 0 and "mail_orders"."shipping_amount" >= 0 and "mail_orders"."total_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "mail_orders" ADD CONSTRAINT "mail_orders_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_orders" ADD CONSTRAINT "mail_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "local_fulfilment_orders_external_unique" ON "local_fulfilment_orders" USING btree ("service","external_id");--> statement-breakpoint
CREATE INDEX "mail_orders_event_idx" ON "mail_orders" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_orders_status_idx" ON "mail_orders" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_orders_session_unique" ON "mail_orders" USING btree ("checkout_session_id");