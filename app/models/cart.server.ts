import { cartProducts, carts, type Cart, type CartProductRow } from "drizzle/schema";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export async function findCartById(db: Db, id: string) {
  const [cart] = await db.select().from(carts).where(eq(carts.id, id)).limit(1);
  return cart ?? null;
}

/** The cart, locked until the transaction ends: two finalizations of one cart wait for each other. */
export async function lockCart(db: Db, id: string) {
  const [cart] = await db.select().from(carts).where(eq(carts.id, id)).for("update").limit(1);
  return cart ?? null;
}

export async function findOpenCartOfEvent(db: Db, eventId: string) {
  const [cart] = await db
    .select()
    .from(carts)
    .where(and(eq(carts.eventId, eventId), eq(carts.status, "open")))
    .limit(1);
  return cart ?? null;
}

/** The newest paid cart of an event (there is one once the Chorus is paid for through a cart). */
export async function findPaidCartOfEvent(db: Db, eventId: string) {
  const [cart] = await db
    .select()
    .from(carts)
    .where(and(eq(carts.eventId, eventId), eq(carts.status, "paid")))
    .orderBy(desc(carts.paidAt))
    .limit(1);
  return cart ?? null;
}

/**
 * The event's open cart, made with `products` if there is none. Two callers at once get the same
 * cart: the second insert meets the one-open-cart-per-event index and reads the first one's,
 * products included.
 */
export async function findOrInsertOpenCart(db: Db, input: { eventId: string; userId: string; products: CartProductRow[] }) {
  // The cart and its products are one transaction: a second caller's insert waits on the index
  // until both are committed, so it never sees (and fills) a cart that is still empty.
  const made = await db.transaction(async (tx) => {
    const [cart] = await tx
      .insert(carts)
      .values({ eventId: input.eventId, userId: input.userId })
      .onConflictDoNothing({ target: carts.eventId, where: sql`${carts.status} = 'open'` })
      .returning();
    if (cart && input.products.length) await tx.insert(cartProducts).values(input.products.map((p) => ({ cartId: cart.id, ...p })));
    return cart;
  });
  return made ?? (await findOpenCartOfEvent(db, input.eventId))!;
}

export async function listCartProducts(db: Db, cartId: string): Promise<CartProductRow[]> {
  return db
    .select({ key: cartProducts.key, quantity: cartProducts.quantity })
    .from(cartProducts)
    .where(eq(cartProducts.cartId, cartId))
    .orderBy(asc(cartProducts.key));
}

export async function replaceCartProducts(db: Db, cartId: string, products: CartProductRow[]) {
  await db.delete(cartProducts).where(eq(cartProducts.cartId, cartId));
  if (products.length) await db.insert(cartProducts).values(products.map((p) => ({ cartId, ...p })));
}

type CartChanges = Partial<Pick<Cart, "promoCodeId" | "billingCountry" | "checkoutSessionId">>;

/** Changes what the cart holds: its version goes up, so a checkout of the old contents is not reused. */
export async function changeCart(db: Db, id: string, changes: CartChanges) {
  const [cart] = await db
    .update(carts)
    .set({ ...changes, version: sql`${carts.version} + 1`, updatedAt: new Date() })
    .where(and(eq(carts.id, id), eq(carts.status, "open")))
    .returning();
  return cart ?? null;
}

/** Notes the checkout session started for the cart as it is (its version stays). */
export async function setCartCheckoutSession(db: Db, id: string, checkoutSessionId: string) {
  await db.update(carts).set({ checkoutSessionId, updatedAt: new Date() }).where(eq(carts.id, id));
}

/**
 * A settled cart reads as what was sold: its products, code and country as the payment was priced
 * (a page paid after the cart changed in another tab sold what that page showed).
 */
export async function setCartAsSold(
  db: Db,
  id: string,
  sold: { products: CartProductRow[]; promoCodeId: string | null; billingCountry: string | null },
) {
  await replaceCartProducts(db, id, sold.products);
  await db.update(carts).set({ promoCodeId: sold.promoCodeId, billingCountry: sold.billingCountry }).where(eq(carts.id, id));
}

export async function markCartPaid(db: Db, id: string, paidAt: Date) {
  const [cart] = await db.update(carts).set({ status: "paid", paidAt, updatedAt: new Date() }).where(eq(carts.id, id)).returning();
  return cart ?? null;
}
