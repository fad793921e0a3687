import { useRef } from "react";
import { OriginalsOffer } from "~/components/commerce/keepsake-links";
import { OccasionIcon } from "~/components/ui/occasion-icon";
import type { PageOf } from "~/services/events/event-page-view";
import { EventBroadcastForm } from "./event-broadcast-form";
import { EventContributions } from "./event-contributions";
import { EventDeleteForm, EventDeletedNotice } from "./event-delete-form";
import { EventDeliverForm } from "./event-deliver-form";
import { FoldedSection, useUnfolding } from "./event-fold";
import { EventGiftSection } from "./event-gift-section";
import { EventGuestbook } from "./event-guestbook";
import { EventInviteForm } from "./event-invite-form";
import { EventInvitees } from "./event-invitees";
import { EventNextStep } from "./event-next-step";
import { EventRecipients } from "./event-recipients";
import { EventSettingsForm } from "./event-settings-form";
import { EventShareLinks } from "./event-share-links";
import { EventThankYouVideo } from "./event-thank-you-video";
import { EventTrees } from "./event-trees";
import { EventVideoPreview } from "./event-video-preview";

type Page = PageOf<"creator">;

/** The page's parts, in order, for its section nav; the guestbook and thank-you only when there is one. */
function sectionsOf(page: Page): [id: string, label: string][] {
  const guestbook = page.messages.length > 0 || !!page.keepsakes.guestbook;
  return [
    ["video", "Video"],
    ["contributions", "Contributions"],
    ["originals", "Originals"],
    ...(guestbook ? [["guestbook", "Guestbook"] as [string, string]] : []),
    ...(page.thankYou ? [[thankYouVideoId(page), "Thank-you"] as [string, string]] : []),
    ["invite", "Invite"],
    ["invitees", "Invitees"],
    ["share", "Share links"],
    ["message-all", "Message all"],
    ["recipients", "Recipients"],
    ["gift", "Gift card"],
    ["deliver", "Deliver"],
    ["settings", "Settings"],
    ["delete", "Delete"],
  ];
}

// The next step's "See the thank-you" goes to #thank-you: the recipient's message if they wrote
// one, else their video.
const thankYouVideoId = (page: Page) => (page.thankYouMessage ? "thank-you-video" : "thank-you");

function EventHead({ page }: { page: Page }) {
  return (
    <header className="event-head">
      <p className="event-head__occasion">
        <OccasionIcon type={page.occasion.type} size={20} className="occasion-icon--inline" /> {page.occasion.label}
      </p>
      <h1>{page.headline}</h1>
      <dl className="event-facts">
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`status status--${page.status.kind}`}>{page.status.label}</span>
          </dd>
        </div>
        <div>
          <dt>Event code</dt>
          <dd>
            <code>{page.eventCode}</code>
          </dd>
        </div>
        <div>
          <dt>Deadline</dt>
          <dd>{page.deadline}</dd>
        </div>
      </dl>
      {page.thankYouMessage ? (
        <blockquote className="event-thanks" id="thank-you">
          <p>{page.thankYouMessage}</p>
          <footer>— the recipient's thank-you</footer>
        </blockquote>
      ) : null}
    </header>
  );
}

/**
 * The organiser's page: everything about their Chorus, each part a form that works without
 * JavaScript. It opens with the next step and a nav to every part; the parts used now and then
 * are folded on a phone (event-fold.tsx).
 */
export function EventCreatorView({ page }: { page: Page }) {
  const root = useRef<HTMLDivElement>(null);
  useUnfolding(root);
  if (page.deleted) {
    return (
      <div className="event-page stack">
        <EventHead page={page} />
        <EventDeletedNotice />
      </div>
    );
  }
  return (
    <div className="event-page stack" ref={root}>
      <EventHead page={page} />
      <EventNextStep step={page.nextStep} uuid={page.uuid} cartPath={page.delivery.cartPath} />
      <nav aria-label="On this page" className="event-nav">
        <ul>
          {sectionsOf(page).map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`}>{label}</a>
            </li>
          ))}
        </ul>
      </nav>
      {/* Folded until there is something to put in it. */}
      <FoldedSection
        id="video"
        heading="The video"
        about="Theme, music, preview and publishing"
        open={page.media.items.length > 0 || !!page.video}
        className="event-make-video"
      >
        {page.video ? <EventVideoPreview video={page.video} delivery={page.delivery} /> : null}
        <p>Choose a theme and music, watch a preview, then render and publish. You can change it and publish again at any time.</p>
        <a className="button" href={`/e/${page.uuid}/arrange`}>
          Make the video
        </a>
        <p>
          <a href={`/e/${page.uuid}/post`}>A DVD or a photo book of the video, by post</a>, and the orders you placed
        </p>
      </FoldedSection>
      <EventContributions media={page.media} eventUuid={page.uuid} stock={page.stock} />
      <FoldedSection
        id="originals"
        heading="Every original"
        about={page.keepsakes.originals.bought ? "Download every photo and clip" : "Every photo and clip, at full size"}
      >
        <OriginalsOffer offer={page.keepsakes.originals} />
      </FoldedSection>
      <EventGuestbook messages={page.messages} timeZone={page.settings.timeZone} keepsake={page.keepsakes.guestbook} />
      <EventThankYouVideo video={page.thankYou} from="the recipient" id={thankYouVideoId(page)} />
      <EventInviteForm collecting={page.collecting} />
      <EventInvitees page={page} />
      <EventShareLinks links={page.shareLinks} access={page.delivery} />
      <EventBroadcastForm invitees={page.invitees.length} />
      <EventRecipients recipients={page.recipients} />
      <EventGiftSection section={page.gift} />
      <EventTrees uuid={page.uuid} trees={page.trees} canPlant />
      <FoldedSection id="postcards" heading="Printed postcards" about="A card with a QR code to the video, posted for you">
        <a className="button button--secondary" href={`/e/${page.uuid}/postcards`}>
          Design a postcard
        </a>
      </FoldedSection>
      <EventDeliverForm delivery={page.delivery} />
      <EventSettingsForm settings={page.settings} />
      <EventDeleteForm />
    </div>
  );
}
