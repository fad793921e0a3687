import type { Event, User } from "drizzle/schema";
import { z } from "zod";
import { acceptsContributions } from "~/domain/event-permissions";
import { db } from "~/lib/db.server";
import { ApiError, parseWith } from "~/lib/http.server";
import { insertGuestbookEntry, listGuestbookEntries } from "~/models/guestbook.server";
import { findRsvpByInviteToken, findRsvpOfUser, updateRsvp } from "~/models/rsvp.server";
import { countAttempt } from "~/services/accounts/rate-limit.server";
import { queueContributionDigest } from "~/services/events/digest.server";

export const guestbookEntryInput = z.object({
  contributorName: z.string({ error: "Tell us your name." }).trim().min(1, "Tell us your name.").max(80, "Use at most 80 characters."),
  caption: z
    .string({ error: "Write your message." })
    .trim()
    .min(1, "Write your message.")
    .max(2000, "Keep your message under 2,000 characters."),
  invite: z.string().max(100).optional(),
});

/** Who signs: their account if they are logged in, and the address their attempts are counted by. */
export interface Signer {
  user: User | null;
  clientIp: string;
}

/** Signs a guestbook event with words only: a name and a message, no file needed. */
export async function signGuestbook(signer: Signer, event: Event, payload: Record<string, unknown>) {
  if (!event.guestbook)
    throw new ApiError(400, "NO_FILE", "Choose a photo or a video to upload.", { file: "Choose a photo or a video to upload." });
  if (!acceptsContributions(event)) throw new ApiError(409, "EVENT_CLOSED", "This guestbook is no longer collecting messages.");
  await countAttempt(`guestbook:${signer.clientIp}`, 30);
  const input = parseWith(guestbookEntryInput, payload);
  const { user } = signer;
  const rsvp =
    (input.invite ? await findRsvpByInviteToken(db(), event.id, input.invite) : null) ??
    (user ? await findRsvpOfUser(db(), event.id, user) : null);
  const entry = await insertGuestbookEntry(db(), {
    eventId: event.id,
    name: input.contributorName,
    message: input.caption,
    rsvpId: rsvp?.id ?? null,
    uploaderId: user?.id ?? null,
  });
  if (rsvp) await updateRsvp(db(), rsvp.id, { status: "contributed", contributedAt: new Date() });
  await queueContributionDigest(event);
  return entry;
}

/** Messages as the organiser, the recipient and view-only viewers read them. */
export async function guestbookMessages(event: Event) {
  return (await listGuestbookEntries(db(), event.id))
    .filter((e) => !e.hidden)
    .map((e) => ({ id: e.id, name: e.name, message: e.message, createdAt: e.createdAt.toISOString() }));
}
