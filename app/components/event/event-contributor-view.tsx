import { ContributorOfferCard } from "~/components/commerce/contributor-offer";
import { ContributionForm } from "~/components/media/contribution-form";
import type { PageOf } from "~/services/events/event-page-view";
import { GiftPot } from "./event-gift-pot";
import { EventHero } from "./event-hero";
import { EventThankYouVideo } from "./event-thank-you-video";
import { EventTrees } from "./event-trees";
import { OfflineNote, useKeptForOffline } from "./offline-note";

/** What a contributor sees while the Chorus collects: who it's for, what to say, and by when. */
export function EventContributorView({ page }: { page: PageOf<"contributor"> }) {
  useKeptForOffline();
  return (
    <div className="event-page event-page--narrow stack">
      <OfflineNote />
      <EventHero
        occasion={page.occasion.type}
        headline={page.headline}
        greeting={page.greeting ? `Hi ${page.greeting}, you're invited!` : null}
      >
        Add yours by {page.deadline}
      </EventHero>
      {page.message ? (
        <section className="card event-section" aria-labelledby="message-heading">
          <h2 id="message-heading" className="visually-hidden">
            From the organiser
          </h2>
          <p className="event-message">{page.message}</p>
        </section>
      ) : null}
      {page.prompts.length ? (
        <section className="card event-section" aria-labelledby="prompts-heading">
          <h2 id="prompts-heading">Some ideas for what to say</h2>
          <ul className="event-prompts">
            {page.prompts.map((prompt, i) => (
              <li key={i}>{prompt}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <EventThankYouVideo video={page.thankYou} from={page.thankYouFrom} />
      <section className="card event-section" id="contribute" aria-labelledby="contribute-heading">
        <h2 id="contribute-heading">{page.guestbook ? "Sign the guestbook" : "Add your photos and clips"}</h2>
        <p className="field-hint">No app and no account needed. If your signal drops, your upload picks up where it stopped.</p>
        <ContributionForm
          eventUuid={page.uuid}
          invite={page.invite ?? undefined}
          defaultName={page.greeting ?? ""}
          limits={page.limits}
          action={`/e/${page.uuid}/contribute${page.invite ? `?invite=${encodeURIComponent(page.invite)}` : ""}`}
          submitLabel={page.guestbook ? "Sign the guestbook" : "Upload"}
          guestbook={page.guestbook}
        />
      </section>
      {page.gift?.status === "collecting" ? (
        <section className="card event-section" id="gift" aria-labelledby="gift-heading">
          <h2 id="gift-heading">Chip in for the gift card</h2>
          <GiftPot gift={page.gift} />
          <a className="button" href={`/e/${page.uuid}/gift`}>
            Chip in
          </a>
        </section>
      ) : null}
      <EventTrees uuid={page.uuid} trees={page.trees} canPlant />
      {page.offer ? <ContributorOfferCard offer={page.offer} /> : null}
    </div>
  );
}
