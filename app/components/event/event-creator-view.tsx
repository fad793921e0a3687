import { OriginalsSection } from "~/components/commerce/keepsake-links";
import type { PageOf } from "~/services/events/event-page.server";
import { EventBroadcastForm } from "./event-broadcast-form";
import { EventContributions } from "./event-contributions";
import { EventDeleteForm, EventDeletedNotice } from "./event-delete-form";
import { EventDeliverForm } from "./event-deliver-form";
import { EventGiftSection } from "./event-gift-section";
import { EventGuestbook } from "./event-guestbook";
import { EventInviteForm } from "./event-invite-form";
import { EventInvitees } from "./event-invitees";
import { EventRecipients } from "./event-recipients";
import { EventSettingsForm } from "./event-settings-form";
import { EventShareLinks } from "./event-share-links";
import { EventThankYouVideo } from "./event-thank-you-video";

type Page = PageOf<"creator">;

const SECTIONS = [
  ["contributions", "Contributions"],
  ["share", "Share links"],
  ["invite", "Invite"],
  ["invitees", "Invitees"],
  ["recipients", "Recipients"],
  ["gift", "Gift card"],
  ["deliver", "Deliver"],
  ["settings", "Settings"],
] as const;

function EventHead({ page }: { page: Page }) {
  return (
    <header className="event-head">
      <p className="event-head__occasion">
        <span aria-hidden="true">{page.occasion.emoji}</span> {page.occasion.label}
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
        <blockquote className="event-thanks">
          <p>{page.thankYouMessage}</p>
          <footer>— the recipient's thank-you</footer>
        </blockquote>
      ) : null}
    </header>
  );
}

/** The organiser's page: everything about their Chorus, each part a form that works without JavaScript. */
export function EventCreatorView({ page }: { page: Page }) {
  if (page.deleted) {
    return (
      <div className="event-page stack">
        <EventHead page={page} />
        <EventDeletedNotice />
      </div>
    );
  }
  return (
    <div className="event-page stack">
      <EventHead page={page} />
      <nav aria-label="On this page" className="event-nav">
        <ul>
          {SECTIONS.map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`}>{label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <section className="card event-section event-make-video" aria-labelledby="make-video-heading">
        <h2 id="make-video-heading">The video</h2>
        <p>Choose a theme and music, watch a preview, then render and publish. You can change it and publish again at any time.</p>
        <a className="button" href={`/e/${page.uuid}/arrange`}>
          Make the video
        </a>
      </section>
      <EventContributions media={page.media} eventUuid={page.uuid} stock={page.stock} />
      <OriginalsSection offer={page.keepsakes.originals} />
      <EventGuestbook messages={page.messages} timeZone={page.settings.timeZone} keepsake={page.keepsakes.guestbook} />
      <EventThankYouVideo video={page.thankYou} from="the recipient" />
      <EventShareLinks links={page.shareLinks} />
      <EventInviteForm collecting={page.collecting} />
      <EventInvitees page={page} />
      <EventBroadcastForm invitees={page.invitees.length} />
      <EventRecipients recipients={page.recipients} />
      <EventGiftSection section={page.gift} />
      <EventDeliverForm delivery={page.delivery} />
      <EventSettingsForm settings={page.settings} />
      <EventDeleteForm />
    </div>
  );
}
