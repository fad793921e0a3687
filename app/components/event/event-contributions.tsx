import { OrganiserMediaGrid } from "~/components/media/organiser-media-grid";
import { StockPhotoPicker } from "~/components/media/stock-photo-picker";
import type { OrganiserMedia } from "~/services/media/media-view";
import type { StockPicker } from "~/services/media/stock-photo-pick-view";

/** The organiser's photos and clips, live as they arrive, to arrange for the video. */
export function EventContributions({
  media,
  eventUuid,
  stock = null,
}: {
  media: OrganiserMedia;
  eventUuid: string;
  stock?: StockPicker | null;
}) {
  return (
    <section className="card event-section" id="contributions" aria-labelledby="contributions-heading">
      <h2 id="contributions-heading">Contributions</h2>
      <OrganiserMediaGrid media={media} eventUuid={eventUuid} />
      <StockPhotoPicker picker={stock} />
    </section>
  );
}
