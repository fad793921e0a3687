import type { PageOf } from "~/services/events/event-page-view";

type Page = PageOf<"creator">;

/**
 * The published video on the organiser's page, paid for or not: they watch here what the
 * recipient's link will play (docs/decisions/045). Nothing is fetched until they press play.
 */
export function EventVideoPreview({ video, delivery }: { video: NonNullable<Page["video"]>; delivery: Page["delivery"] }) {
  const width = video.width ?? 1920;
  const height = video.height ?? 1080;
  return (
    <div className="event-video-preview">
      <div className="event-video__frame" style={{ aspectRatio: `${width} / ${height}` }}>
        <video
          controls
          playsInline
          preload="none"
          poster={video.posterUrl ?? undefined}
          src={video.videoUrl}
          width={width}
          height={height}
          aria-label={`Version ${video.version} of the video`}
        />
      </div>
      {delivery.unlocked ? (
        <p className="field-hint">{`Version ${video.version}: what the recipient's link plays.`}</p>
      ) : (
        <p className="field-hint">
          {`Version ${video.version}. Only you can watch it for now: the recipient's and view-only links say it is on its way until you pay for this Chorus. `}
          <a href={delivery.cartPath}>Go to checkout</a>
        </p>
      )}
    </div>
  );
}
