ALTER TABLE "postcards" ADD COLUMN "tracking_url" text;--> statement-breakpoint
ALTER TABLE "mail_orders" ADD COLUMN "expected_delivery" text;