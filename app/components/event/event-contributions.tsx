import { OrganiserMediaGrid } from "~/components/media/organiser-media-grid";
import type { OrganiserMedia } from "~/services/media-grid.server";

/** The organiser's photos and clips, live as they arrive, to arrange for the video. */
export function EventContributions({ media, eventUuid }: { media: OrganiserMedia; eventUuid: string }) {
  return (
    <section className="card event-section" id="contributions" aria-labelledby="contributions-heading">
      <h2 id="contributions-heading">Contributions</h2>
      <OrganiserMediaGrid media={media} eventUuid={eventUuid} />
    </section>
  );
}
