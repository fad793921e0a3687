import type { ThankYouVideo } from "~/services/uploads/thank-you-video-view";

/** The recipient's thank-you clip. The box keeps its 16:9 shape before the video loads (no layout shift). */
export function EventThankYouVideo({ video, from, id }: { video: ThankYouVideo | null; from: string; id?: string }) {
  if (!video) return null;
  return (
    <section className="card event-section" id={id} aria-labelledby="thank-you-video-watch">
      <h2 id="thank-you-video-watch">{`A thank-you from ${from}`}</h2>
      <video
        className="thank-you-video"
        controls
        playsInline
        preload="metadata"
        poster={video.posterUrl ?? undefined}
        src={video.videoUrl}
        width={1920}
        height={1080}
      >
        <a href={video.videoUrl}>Download the thank-you video</a>
      </video>
    </section>
  );
}
