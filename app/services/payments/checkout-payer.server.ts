import { z } from "zod";
import { db } from "~/lib/db.server";
import { findMailOrder } from "~/models/mail-order.server";
import { findPostcard } from "~/models/postcard.server";

// Whose a checkout session is: what it says (its state, its amount, the Chorus it links back to) is
// told to its payer alone. A session opened by a signed-in user for something of theirs (a cart, a
// membership, a postcard, an order by post) belongs to the account that owns that thing; a gift
// card or tree contribution, which anyone holding the Chorus's link may make without an account,
// belongs to the browser that opened it (checkout-cookie.server.ts).

/** Who asks: the signed-in user, and the checkout sessions their browser opened. */
export interface CheckoutPayer {
  userId: string | null;
  openedHere: readonly string[];
}

/** What of a session says whose it is: its id and the metadata we gave it. */
export interface CheckoutOwnership {
  id: string;
  metadata: Record<string, string>;
}

const uuid = z.uuid();
const ourId = (value: string | undefined) => (uuid.safeParse(value).success ? value! : null);

/** The account that owns what the session pays for; null for contributions, which need none. */
async function accountOf(session: CheckoutOwnership): Promise<string | null> {
  const { metadata } = session;
  switch (metadata.kind) {
    case "cart":
    case "membership":
      return ourId(metadata.userId);
    case "postcard": {
      const id = ourId(metadata.postcardId);
      return id ? ((await findPostcard(db(), id))?.creatorId ?? null) : null;
    }
    case "mail-order": {
      const id = ourId(metadata.mailOrderId);
      return id ? ((await findMailOrder(db(), id))?.userId ?? null) : null;
    }
    default:
      return null;
  }
}

/** Whether `payer` may see `session`: it was opened in their browser, or pays for something their account owns. */
export async function isPayerOf(session: CheckoutOwnership, payer: CheckoutPayer): Promise<boolean> {
  if (payer.openedHere.includes(session.id)) return true;
  if (!payer.userId) return false;
  return (await accountOf(session)) === payer.userId;
}
