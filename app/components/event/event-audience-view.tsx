import { useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ContributionForm, type UploadLimits } from "~/components/media/contribution-form";
import { FormMessages } from "~/components/ui/field";
import { GiftIcon } from "~/components/ui/icons";
import { formatMoney } from "~/domain/commerce/money";
import { api } from "~/lib/browser/api-client";
import type { AudiencePage } from "~/services/events/event-page-view";
import { EventGuestbook } from "./event-guestbook";
import { EventHero } from "./event-hero";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";
import { EventTrees } from "./event-trees";
import { useVideoStream } from "./use-video-stream";

type Page = AudiencePage;

/**
 * The published video: poster first, only its metadata fetched until play (phones on data), then
 * the HLS ladder at the size the link carries, or the MP4 with range requests (without JavaScript,
 * or when streaming fails; see use-video-stream.ts). The box keeps the video's shape so nothing
 * jumps when it loads. It is here only once the Chorus is unlocked, so its full-quality download is
 * open too (docs/decisions/045).
 */
function VideoPlayer({ video, headline }: { video: NonNullable<Page["video"]>; headline: string }) {
  const width = video.width ?? 1920;
  const height = video.height ?? 1080;
  const ref = useRef<HTMLVideoElement>(null);
  useVideoStream(ref, video.streamUrl);
  return (
    <section className="event-video event-video--player" aria-label="Your video">
      <div className="event-video__frame" style={{ aspectRatio: `${width} / ${height}` }}>
        <video
          ref={ref}
          controls
          playsInline
          preload="metadata"
          poster={video.posterUrl ?? undefined}
          width={width}
          height={height}
          aria-label={headline}
        >
          <source src={video.videoUrl} type="video/mp4" />
          <a href={video.downloadUrl}>Download the video</a>
        </video>
      </div>
      <p className="event-video__actions">
        <a className="button button--secondary" href={video.downloadUrl} download>
          Download the video
        </a>
      </p>
    </section>
  );
}

/**
 * Where the video goes while there is none to play: still being made, made and on its way (its
 * organiser has not paid for it yet), or no longer available (delivered, then refunded). A sentence,
 * never a frame of it.
 */
const WAITING: Record<Exclude<Page["shows"], "ready">, { heading: string; text: string }> = {
  preparing: {
    heading: "Your video is being prepared",
    text: "The people who care about you are putting something together. We'll have it here for you soon.",
  },
  "on-its-way": {
    heading: "Your video is on its way",
    text: "It will play right here, on this same link, as soon as it's ready for you.",
  },
  unavailable: {
    heading: "This video isn't available right now",
    text: "It can't be played on this link at the moment. The person who made it for you can tell you more.",
  },
};

function VideoWaiting({ shows }: { shows: keyof typeof WAITING }) {
  const { heading, text } = WAITING[shows];
  return (
    <section className={`event-video event-video--waiting event-video--${shows}`} aria-label="Your video">
      <p className="event-video__icon">
        <GiftIcon size={48} strokeWidth={1.5} />
      </p>
      <h2>{heading}</h2>
      <p>{text}</p>
    </section>
  );
}

function Contributors({ names }: { names: string[] }) {
  if (!names.length) return null;
  return (
    <section className="card event-section" aria-labelledby="contributors-heading">
      <h2 id="contributors-heading">With love from</h2>
      <ul className="event-names">
        {names.map((name, i) => (
          <li key={`${name}-${i}`}>{name}</li>
        ))}
      </ul>
    </section>
  );
}

function ThankYouForm({ message }: { message: string }) {
  const reply = useIntentReply("thank-you");
  const error = reply?.errors?.thankYouMessage;
  return (
    <section className="card event-section" id="thank-you" aria-labelledby="thank-you-heading">
      <h2 id="thank-you-heading">Say thank you</h2>
      <FormMessages formError={error ? undefined : reply?.formError} message={reply?.message} />
      <IntentForm intent="thank-you" section="thank-you">
        <div className="field">
          <label htmlFor="thank-you-message">Your message to everyone who took part</label>
          <textarea
            id="thank-you-message"
            name="thankYouMessage"
            rows={4}
            defaultValue={reply?.values?.thankYouMessage ?? message}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "thank-you-message-error" : undefined}
          />
          {error ? (
            <p className="field-error" id="thank-you-message-error">
              {error}
            </p>
          ) : null}
        </div>
        <IntentButton intent="thank-you" pending="Saving…">
          {message ? "Update my message" : "Send my message"}
        </IntentButton>
      </IntentForm>
    </section>
  );
}

/** Tells the organiser the recipient opened their page (kept once, server side). */
function useMarkOpened(page: Page) {
  const [params] = useSearchParams();
  const privateKey = page.kind === "recipient" ? params.get("privateKey") : null;
  useEffect(() => {
    if (!privateKey) return;
    const controller = new AbortController();
    // Nothing to tell the reader if it fails: the next visit or their thank-you records it.
    api.post(`/v2/events/${page.id}/opened`, undefined, { query: { privateKey }, signal: controller.signal }).catch(() => undefined);
    return () => controller.abort();
  }, [page.id, privateKey]);
}

/** The recipient's private page and the view-only page: the video (or its promise) and who made it. */
export function EventAudienceView({ page }: { page: Page }) {
  useMarkOpened(page);
  return (
    <div className="event-page event-page--narrow stack">
      <EventHero occasion={page.occasion.type} headline={page.headline}>
        {page.kind === "recipient" ? `For ${page.recipientNames}, from the people who love you.` : `A video for ${page.recipientNames}.`}
      </EventHero>
      {page.shows === "ready" && page.video ? (
        <VideoPlayer video={page.video} headline={page.headline} />
      ) : (
        <VideoWaiting shows={page.shows === "ready" ? "preparing" : page.shows} />
      )}
      <Contributors names={page.contributors} />
      <EventGuestbook messages={page.messages} timeZone={page.timeZone} />
      {page.gift ? (
        <section className="card event-section" id="gift" aria-labelledby="gift-heading">
          <h2 id="gift-heading">A gift card for you</h2>
          <p>{`${formatMoney(page.gift.amount, page.gift.currency)} at ${page.gift.productName}, from everyone who chipped in.`}</p>
          <a className="button" href={page.gift.claimUrl} rel="noreferrer">
            Claim your gift card
          </a>
        </section>
      ) : null}
      <EventTrees uuid={page.uuid} trees={page.trees} canPlant={false} />
      {page.kind === "recipient" ? <ThankYouForm message={page.thankYouMessage} /> : null}
      {page.kind === "recipient" ? <ThankYouVideo uuid={page.uuid} limits={page.limits} /> : null}
    </div>
  );
}

/** The recipient answers with a clip of their own, through the same resumable upload as contributors. */
function ThankYouVideo({ uuid, limits }: { uuid: string; limits: UploadLimits }) {
  const [params] = useSearchParams();
  const privateKey = params.get("privateKey") ?? "";
  return (
    <section className="card event-section" aria-labelledby="thank-you-video-heading">
      <h2 id="thank-you-video-heading">Send a thank-you video</h2>
      <p className="field-hint">Record or pick a short clip to say thanks. Everyone who contributed can watch it.</p>
      <ContributionForm
        eventUuid={uuid}
        purpose="thank_you"
        privateKey={privateKey}
        limits={limits}
        action={`/e/${uuid}/contribute?privateKey=${encodeURIComponent(privateKey)}`}
        submitLabel="Send my thank-you video"
      />
    </section>
  );
}
