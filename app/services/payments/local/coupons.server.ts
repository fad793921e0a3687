import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { findLocalPaymentObject, saveLocalPaymentObject } from "~/models/local-payment.server";
import { createObject, LocalApiError, newId, noSuch, nowSeconds } from "./objects.server";

// Coupons of the local payment service, as Stripe keeps them: an amount off in one currency, once,
// that a checkout session names in `discounts`. The app makes one for a promo code's discount
// (docs/decisions/046), so the payment page shows the lines at their price, the code's line and the total.

// Only what the adapter sends: an amount off (a percentage is not asked for, so not emulated).
export const createCoupon = z.object({
  amount_off: z.coerce.number().int().min(1).max(99_999_999),
  currency: z.string().regex(/^[a-z]{3}$/),
  duration: z.enum(["once", "forever", "repeating"]).default("once"),
  max_redemptions: z.coerce.number().int().min(1).optional(),
  name: z.string().max(40).optional(),
  metadata: z.record(z.string().max(40), z.string().max(500)).optional(),
});

export const sessionDiscounts = z.array(z.object({ coupon: z.string().min(1).max(100) })).max(1);

export function couponCreate(tx: Db, input: z.infer<typeof createCoupon>) {
  return createObject(tx, {
    id: newId("co"),
    object: "coupon",
    amount_off: input.amount_off,
    currency: input.currency,
    duration: input.duration,
    max_redemptions: input.max_redemptions ?? null,
    times_redeemed: 0,
    name: input.name ?? null,
    metadata: input.metadata ?? {},
    valid: true,
    created: nowSeconds(),
    livemode: false,
  });
}

/** What a session's coupon takes off its lines' sum, as Stripe works it out: never more than the sum. */
export async function discountOf(tx: Db, discounts: z.infer<typeof sessionDiscounts> | undefined, currency: string, subtotal: number) {
  const couponId = discounts?.[0]?.coupon;
  if (!couponId) return null;
  const coupon = await findLocalPaymentObject(tx, couponId, "coupon");
  if (!coupon) throw noSuch("coupon", couponId);
  if (!coupon.valid || (coupon.max_redemptions !== null && Number(coupon.times_redeemed) >= Number(coupon.max_redemptions))) {
    throw new LocalApiError(
      400,
      `Coupon ${couponId} cannot be redeemed because it has already been redeemed the maximum number of times.`,
      {
        param: "discounts[0][coupon]",
      },
    );
  }
  if (coupon.currency !== currency) {
    throw new LocalApiError(400, `The coupon's currency (${String(coupon.currency)}) must match the session's (${currency}).`, {
      param: "discounts[0][coupon]",
    });
  }
  return { couponId, name: (coupon.name as string | null) ?? couponId, amount: Math.min(Number(coupon.amount_off), subtotal) };
}

/** A paid session's coupon counts one redemption. */
export async function redeemCoupon(tx: Db, couponId: string) {
  const coupon = await findLocalPaymentObject(tx, couponId, "coupon", { lock: true });
  if (!coupon) return;
  coupon.times_redeemed = Number(coupon.times_redeemed) + 1;
  await saveLocalPaymentObject(tx, coupon);
}
