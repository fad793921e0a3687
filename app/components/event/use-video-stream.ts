import { useEffect, type RefObject } from "react";

/**
 * Streams the published video from its HLS ladder when it has one (docs/decisions/036). All of it
 * is loaded after the page has hydrated (video-stream.ts), so the page itself carries none of it;
 * an element left before it arrives is simply not streamed to.
 */
export function useVideoStream(ref: RefObject<HTMLVideoElement>, streamUrl: string | null) {
  useEffect(() => {
    const video = ref.current;
    let stop: (() => void) | undefined;
    if (video && streamUrl)
      import("./video-stream").then(
        ({ streamVideo }) => (stop = video.isConnected ? streamVideo(video, streamUrl) : undefined),
        () => {},
      );
    return () => stop?.();
  }, [ref, streamUrl]);
}
