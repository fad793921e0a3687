CREATE TABLE "promo_code_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"promo_code_id" uuid NOT NULL,
	"cart_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"checkout_key" text NOT NULL,
	"checkout_session_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gift_contributions" ADD COLUMN "holds_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "promo_code_holds" ADD CONSTRAINT "promo_code_holds_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code_holds" ADD CONSTRAINT "promo_code_holds_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code_holds" ADD CONSTRAINT "promo_code_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promo_code_holds_checkout_key_unique" ON "promo_code_holds" USING btree ("checkout_key");--> statement-breakpoint
CREATE INDEX "promo_code_holds_code_idx" ON "promo_code_holds" USING btree ("promo_code_id","expires_at");--> statement-breakpoint
CREATE INDEX "promo_code_holds_session_idx" ON "promo_code_holds" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "promo_code_holds_cart_idx" ON "promo_code_holds" USING btree ("cart_id");