CREATE TYPE "public"."receipt_kind" AS ENUM('gift_contribution', 'tree_contribution', 'postcard', 'mail_order');--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "receipt_kind" NOT NULL,
	"subject_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text NOT NULL,
	"user_id" uuid,
	"event_id" uuid,
	"email" text NOT NULL,
	"name" text,
	"description" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"refund_reason" text,
	"paid_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_amounts_check" CHECK ("receipts"."amount" >= 0 and "receipts"."amount_refunded" >= 0)
);
--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_payment_unique" ON "receipts" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE INDEX "receipts_payment_idx" ON "receipts" USING btree ("provider_payment_id");--> statement-breakpoint
CREATE INDEX "receipts_user_idx" ON "receipts" USING btree ("user_id","paid_at");--> statement-breakpoint
-- Payments taken before receipts were kept get a row each (no e-mail is sent for them), so a later refund finds its payer.
INSERT INTO "receipts" ("kind", "subject_id", "provider", "provider_payment_id", "event_id", "email", "name", "description", "amount", "currency", "amount_refunded", "paid_at")
SELECT 'gift_contribution', c."id", coalesce(c."provider", 'stripe'), c."payment_intent_id", g."event_id", c."email", c."name", 'a gift card', c."amount", lower(c."currency"), c."amount_refunded", coalesce(c."paid_at", c."created_at")
FROM "gift_contributions" c JOIN "gifts" g ON g."id" = c."gift_id"
WHERE c."payment_intent_id" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "receipts" ("kind", "subject_id", "provider", "provider_payment_id", "event_id", "email", "name", "description", "amount", "currency", "amount_refunded", "paid_at")
SELECT 'tree_contribution', t."id", coalesce(t."provider", 'stripe'), t."payment_intent_id", t."event_id", t."email", t."name", CASE WHEN t."quantity" = 1 THEN '1 tree' ELSE t."quantity" || ' trees' END, t."amount", lower(t."currency"), t."amount_refunded", coalesce(t."paid_at", t."created_at")
FROM "tree_contributions" t
WHERE t."payment_intent_id" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "receipts" ("kind", "subject_id", "provider", "provider_payment_id", "user_id", "event_id", "email", "description", "amount", "currency", "amount_refunded", "paid_at")
SELECT 'postcard', p."id", coalesce(p."payment_provider", 'stripe'), p."payment_intent_id", p."creator_id", p."event_id", u."email", 'a printed postcard', p."amount", lower(p."currency"), CASE WHEN p."status" = 'refunded' THEN p."amount" ELSE 0 END, coalesce(p."paid_at", p."created_at")
FROM "postcards" p JOIN "users" u ON u."id" = p."creator_id"
WHERE p."payment_intent_id" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "receipts" ("kind", "subject_id", "provider", "provider_payment_id", "user_id", "event_id", "email", "description", "amount", "currency", "amount_refunded", "paid_at")
SELECT 'mail_order', o."id", coalesce(o."provider", 'stripe'), o."payment_intent_id", o."user_id", o."event_id", u."email",
  CASE WHEN o."quantity" = 1 THEN (CASE o."kind" WHEN 'dvd' THEN 'a DVD of the video' ELSE 'a printed photo book' END)
       ELSE o."quantity" || ' × ' || (CASE o."kind" WHEN 'dvd' THEN 'DVD of the video' ELSE 'Printed photo book' END) END,
  o."total_amount", lower(o."currency"), o."amount_refunded", coalesce(o."paid_at", o."created_at")
FROM "mail_orders" o JOIN "users" u ON u."id" = o."user_id"
WHERE o."payment_intent_id" IS NOT NULL
ON CONFLICT DO NOTHING;
