import { payments, type Event, type RenderJob } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { updateArrangement } from "~/models/arrangement.server";
import { findRenderJob, listRenderJobsOfEvent } from "~/models/render-job.server";
import { findRenderPiece } from "~/models/render-piece.server";
import { findThemeBySlug } from "~/models/theme.server";
import { findTrackBySlug } from "~/models/track.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import { preparedPieces } from "~/services/render/next-render.server";
import { prepareEventPieces } from "~/services/render/piece-preparation.server";
import { cancelRender } from "~/services/render/render-jobs.server";
import { renderPlanFor } from "~/services/render/render-plan.server";
import type { RunningServer } from "../../server";
import { makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import type { TestClient } from "../support/http-client";
import { buyPremiumFinish, makeMember } from "../support/payments";
import { addReadyMedia } from "../support/ready-media";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// The premium finish delivers what the cart sells (docs/decisions/018): 1080p HD and the premium
// themes and tracks render only for a Chorus that has it, bought or included with a membership.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  files = await makeTempDir("premium-finish");
  dropSingleton("storage");
  server = await startTestServer({
    JOB_POLL_SECONDS: "0.5",
    RENDER_PHOTO_SECONDS: "1",
    RENDER_TITLE_SECONDS: "1",
    DATA_DIR: files.path("data"),
  });
});
afterAll(async () => {
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

/** An organiser's Chorus with one photo ready, so a render can start. */
async function eventWithAPhoto() {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user, { occasion: "birthday" });
  await addReadyMedia(event, "photo", files, { name: "Bo", caption: "Remember this?" });
  return { user, client, event };
}

const renderThrough = (client: TestClient, event: Event, resolution?: "1080p" | "720p") =>
  client.post("/api/publish/media", { eventId: event.id, ...(resolution ? { resolution } : {}) });

/** Stops a render the test started, so it does not keep two cores busy for nothing. */
async function stop(jobId: string) {
  const job = (await findRenderJob(db(), jobId))!;
  if (job.status === "queued" || job.status === "running") await cancelRender(job);
  return until(
    async () => {
      const found = await findRenderJob(db(), jobId);
      return found && !["queued", "running"].includes(found.status) ? found : null;
    },
    { timeout: 60_000, what: `render ${jobId} to stop` },
  );
}

/** The page's HTML with React's text separators and common escapes undone. */
const pageOf = async (response: Response) =>
  (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

const refunded = async (paymentId: string) =>
  (await db().select().from(payments).where(eq(payments.id, paymentId)))[0]?.status === "refunded";

const readyTrack = async (slug: string) =>
  until(
    async () => {
      const track = await findTrackBySlug(db(), slug);
      return track?.status === "ready" ? track : null;
    },
    { timeout: 90_000, what: `the built-in track ${slug} to be prepared` },
  );

describe("1080p HD is the premium finish's", { timeout: 120_000 }, () => {
  test("without premium, 1080p is refused with 402 PREMIUM_REQUIRED and the cart, and nothing is queued", async () => {
    const { client, event } = await eventWithAPhoto();
    const refused = await renderThrough(client, event, "1080p");
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: "PREMIUM_REQUIRED", fields: { payment: `/e/${event.uuid}/checkout` } },
    });
    expect(refused.body.error.message).toMatch(/^1080p HD is part of the Premium finish/);
    expect(refused.body.error.message).toContain(`/e/${event.uuid}/checkout`);
    expect(await listRenderJobsOfEvent(db(), event.id, 5)).toEqual([]);

    // The page's plain form is refused the same way, and the quality is not remembered.
    const page = await client.form(`/e/${event.uuid}/arrange`, { intent: "render-start", resolution: "1080p", publish: "on" });
    expect(page.status).toBe(402);
    const refusedPage = await pageOf(page);
    expect(refusedPage).toContain("1080p HD is part of the Premium finish");
    expect(refusedPage).toContain(`<a href="/e/${event.uuid}/checkout">Premium finish — add it</a>`);
    expect(await listRenderJobsOfEvent(db(), event.id, 5)).toEqual([]);

    // Asking for no quality in particular renders 720p.
    const plain = await renderThrough(client, event);
    expect(plain.status).toBe(202);
    expect(plain.body.data.resolution).toBe("720p");
    await stop(plain.body.data.id);
  });

  test("with the premium finish bought, 1080p is accepted (and is the default); a full refund makes new renders 720p and keeps the old", async () => {
    const { client, event } = await eventWithAPhoto();
    const payment = await buyPremiumFinish(client, event);
    const accepted = await renderThrough(client, event, "1080p");
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body.data.resolution).toBe("1080p");
    const before: RenderJob = await stop(accepted.body.data.id);

    const byDefault = await renderThrough(client, event);
    expect(byDefault.body.data.resolution).toBe("1080p");
    await stop(byDefault.body.data.id);

    await paymentsProvider().refund({ paymentIntentId: payment.providerPaymentId, idempotencyKey: `refund-${payment.id}` });
    await until(() => refunded(payment.id), { timeout: 20_000, what: "the refund's webhook" });
    expect((await renderThrough(client, event, "1080p")).status).toBe(402);
    const after = await renderThrough(client, event);
    expect(after.body.data.resolution).toBe("720p");
    await stop(after.body.data.id);
    // Nothing already made is taken away.
    expect(await findRenderJob(db(), before.id)).toMatchObject({ resolution: "1080p", status: before.status, plan: before.plan });
  });

  test("a VIP member's Chorus has the premium finish included: 1080p is accepted", async () => {
    const { user, client, event } = await eventWithAPhoto();
    await makeMember(user);
    const accepted = await renderThrough(client, event, "1080p");
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body.data.resolution).toBe("1080p");
    await stop(accepted.body.data.id);
  });
});

test("pieces made ahead for a Chorus without premium are 720p, the size its next render will be", { timeout: 120_000 }, async () => {
  const { client, event } = await eventWithAPhoto();
  await prepareEventPieces(event.id);
  const plan = await renderPlanFor(event, { resolution: "720p" });
  const photo = plan.segments.find((s) => s.kind === "photo")!;
  expect(await findRenderPiece(db(), photo.key)).not.toBeNull();
  const page = await pageOf(await client.raw("GET", `/e/${event.uuid}/arrange`));
  // The photo and the two title cards, their two crossfades and the soundtrack: a render now only joins.
  expect(page).toContain("3 of 3 scenes (the opening and closing cards too) are already rendered.");
  // A title card is its own piece and its card part; the photo its own piece and its plain part.
  expect(await preparedPieces(plan)).toMatchObject({ scenesPrepared: 3, scenes: 3, reusable: 9, pieces: 9 });
  expect(page).toContain("A render now reuses 9 of its 9 pieces: only joining them is left.");
});

describe("premium themes and tracks", { timeout: 150_000 }, () => {
  test("anyone picks a premium theme and track; rendering with them is refused until the Chorus has premium", async () => {
    const { client, event } = await eventWithAPhoto();
    const confetti = (await findThemeBySlug(db(), "confetti"))!;
    const partyLights = await readyTrack("party-lights");
    const path = `/e/${event.uuid}/arrange`;
    expect((await client.form(path, { intent: "theme-choose", themeId: confetti.id })).status).toBe(302);

    const themeOnly = await renderThrough(client, event, "720p");
    expect(themeOnly.status).toBe(402);
    expect(themeOnly.body.error).toMatchObject({ code: "PREMIUM_REQUIRED", fields: { payment: `/e/${event.uuid}/checkout` } });
    expect(themeOnly.body.error.message).toMatch(/^The theme “Confetti” is part of the Premium finish\. Add it to this Chorus at \/e\//);

    expect((await client.form(path, { intent: "music-choose", trackId: partyLights.id })).status).toBe(302);
    const both = await renderThrough(client, event, "720p");
    expect(both.status).toBe(402);
    expect(both.body.error.message).toContain("The theme “Confetti” and the track “Party Lights” are part of the Premium finish");
    expect(await listRenderJobsOfEvent(db(), event.id, 5)).toEqual([]);

    await buyPremiumFinish(client, event);
    const accepted = await renderThrough(client, event, "720p");
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    await stop(accepted.body.data.id);
  });

  test("an organiser's own theme copied from a premium one is premium too; one copied from another is not", async () => {
    const { client, event } = await eventWithAPhoto();
    const confetti = (await findThemeBySlug(db(), "confetti"))!;
    const golden = (await findThemeBySlug(db(), "golden-hour"))!;
    const copy = await client.post("/api/v2/themes", { basedOn: confetti.id, name: "Ana's party" });
    expect(copy.body.data).toMatchObject({ basedOnId: confetti.id, isPremium: true });
    const plain = await client.post("/api/v2/themes", { basedOn: golden.id });
    expect(plain.body.data.isPremium).toBe(false);
    // Taking a premium theme's picture makes it premium.
    const dressedUp = await client.put(`/api/v2/themes/${plain.body.data.id}`, { introUrl: confetti.introUrl });
    expect(dressedUp.body.data.isPremium).toBe(true);

    await updateArrangement(db(), event.id, { themeId: copy.body.data.id });
    const refused = await renderThrough(client, event, "720p");
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toContain("The theme “Ana's party” is part of the Premium finish");
  });
});

describe("the arrange page without JavaScript", () => {
  test("shows 1080p as the premium choice with the cart link, Premium badges, and what a chosen premium theme needs", async () => {
    const { client, event } = await eventWithAPhoto();
    const confetti = (await findThemeBySlug(db(), "confetti"))!;
    const path = `/e/${event.uuid}/arrange`;
    await client.form(path, { intent: "theme-choose", themeId: confetti.id });
    const page = await pageOf(await client.raw("GET", path));
    const inputs = page.match(/<input[^>]*>/g) ?? [];
    const hd = inputs.find((t) => t.includes('value="1080p"'))!;
    expect(hd).toContain("disabled");
    expect(hd).not.toContain('name="resolution"');
    expect(inputs.find((t) => t.includes('name="resolution"') && t.includes('value="720p"'))).toContain("checked");
    expect(page).toMatch(new RegExp(`<a id="render-premium-hd" href="/e/${event.uuid}/checkout">Premium finish — add it</a>`));
    expect(page).toContain('<span class="badge badge--premium">Premium</span>');
    expect(page).toContain("The theme “Confetti” is part of the Premium finish, so the video can't be rendered with it yet.");

    // With premium, 1080p is a choice like any other, chosen by default, and the note is gone.
    const member = await loggedInUser(server.url);
    await makeMember(member.user);
    const theirs = await createTestEvent(member.user);
    const premiumPage = await pageOf(await member.client.raw("GET", `/e/${theirs.uuid}/arrange`));
    const theirInputs = premiumPage.match(/<input[^>]*>/g) ?? [];
    expect(theirInputs.find((t) => t.includes('name="resolution"') && t.includes('value="1080p"'))).toContain("checked");
    expect(premiumPage).not.toContain("Premium finish — add it");
  });
});
