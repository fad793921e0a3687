import type { Event } from "drizzle/schema";
import { defaultResolution, premiumRequiredMessage, type PremiumNeed } from "~/domain/commerce/premium";
import { db } from "~/lib/db.server";
import { ApiError } from "~/lib/http.server";
import { findArrangement } from "~/models/arrangement.server";
import { findTrackById } from "~/models/track.server";
import type { Resolution } from "~/render/plan";
import { themeFor } from "~/services/arrange/themes.server";
import { eventEntitlements } from "~/services/commerce/entitlements.server";
import { cartPathOf } from "~/services/commerce/unlock.server";

// What the premium finish changes about a render (docs/decisions/018): without it, a render is
// 720p and uses no premium theme or track. Checked when a render starts, whoever starts it;
// renders made before are never touched.

/** Whether the event has premium, and what its next render would be made with. */
export async function renderChoicesOf(event: Event, requested?: Resolution) {
  const [rights, arrangement, theme] = await Promise.all([eventEntitlements(event), findArrangement(db(), event.id), themeFor(event.id)]);
  const chosenTrack = arrangement.trackId ? await findTrackById(db(), arrangement.trackId) : null;
  // A track that is not ready is left out of the video (renderPlanFor), so it needs nothing.
  const track = chosenTrack?.status === "ready" ? chosenTrack : null;
  const resolution = requested ?? defaultResolution(rights.premium, arrangement.resolution);
  return { premium: rights.premium, choices: { resolution, theme, track } };
}

/** The 402 a render refused for want of premium answers, shaped like PAYMENT_REQUIRED. */
export const premiumRequired = (event: Pick<Event, "uuid">, needs: PremiumNeed[]) =>
  new ApiError(402, "PREMIUM_REQUIRED", premiumRequiredMessage(needs, cartPathOf(event)), { payment: cartPathOf(event) });
