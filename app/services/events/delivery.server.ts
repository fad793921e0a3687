import { db } from "~/lib/db.server";
import { claimDelivery, markDelivered, markDeliveryFailed } from "~/models/message-delivery.server";

/**
 * Sends a message at most once per key. A job retried after a failure, or after a
 * crash once the message went out and was recorded, finds the key sent and skips it.
 */
export async function deliverOnce(key: string, channel: "email" | "sms", to: string, send: () => Promise<void>) {
  const { alreadySent } = await claimDelivery(db(), key, channel, to);
  if (alreadySent) return false;
  try {
    await send();
  } catch (error) {
    await markDeliveryFailed(db(), key, error instanceof Error ? error.message : String(error));
    throw error;
  }
  await markDelivered(db(), key);
  return true;
}
