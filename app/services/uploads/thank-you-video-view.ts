// The recipient's thank-you clip as the event page shows it (thank-you-video.server.ts finds it).

export interface ThankYouVideo {
  posterUrl: string | null;
  videoUrl: string;
  width: number | null;
  height: number | null;
}
