// How the published video plays (docs/decisions/036), loaded once the page has hydrated
// (use-video-stream.ts). The page's markup plays the MP4, which is what a browser without
// JavaScript gets. With JavaScript and a ladder: Safari and iOS play the HLS master playlist
// themselves; other browsers load hls.js (hls-player.ts) only once the person presses play, so
// the page's first visit fetches none of it. Any error goes back to the MP4.

/** Which of the three a player has now, on the element for whoever looks (tests, support). */
type StreamMode = "mp4" | "native-hls" | "hls.js";

/** Streams `video` from the master playlist `streamUrl` as its browser best can; answers how to stop. */
export function streamVideo(video: HTMLVideoElement, streamUrl: string): (() => void) | undefined {
  const source = video.querySelector("source");
  const mp4 = source?.getAttribute("src");
  // Pressed before this arrived: the MP4 plays on, as without JavaScript.
  if (!source || !mp4 || !video.paused) return undefined;
  const mark = (mode: StreamMode) => (video.dataset.stream = mode);
  let stopped = false;

  // Apple's browsers (every one on iOS is WebKit) play HLS themselves, and so does one without
  // Media Source Extensions that says it can. Newer Chromium says so too, but has MSE: it gets
  // hls.js, whose choice of rung on a slow link is the one measured (docs/decisions/036).
  const mse = "MediaSource" in window || "ManagedMediaSource" in window;
  if (video.canPlayType("application/vnd.apple.mpegurl") && (navigator.vendor.startsWith("Apple") || !mse)) {
    // The `src` attribute wins over <source>; taken away again, the MP4 plays.
    const backToMp4 = () => {
      video.removeAttribute("src");
      video.load();
      mark("mp4");
    };
    video.addEventListener("error", backToMp4, { once: true });
    video.src = streamUrl;
    mark("native-hls");
    return () => video.removeEventListener("error", backToMp4);
  }
  if (!mse) return undefined;

  mark("mp4");
  let stopPlayer: (() => void) | undefined;
  const backToMp4 = () => {
    stopPlayer?.();
    if (stopped) return;
    video.removeAttribute("src");
    source.setAttribute("src", mp4);
    video.load();
    mark("mp4");
    void video.play().catch(() => {});
  };
  const onPlay = () => {
    video.removeEventListener("play", onPlay);
    // The MP4 the press started to fetch is let go at once: on a slow link its bytes would
    // share the line with the first segment.
    video.pause();
    source.removeAttribute("src");
    video.load();
    // Beside hls.js, not after it: the first segment is on its way while hls.js loads.
    import("./stream-warm-up").then(({ warmUp }) => warmUp(streamUrl)).catch(() => {});
    import("./hls-player")
      .then(({ playWithHls }) => {
        if (stopped) return;
        mark("hls.js");
        stopPlayer = playWithHls(video, streamUrl, backToMp4);
      })
      .catch(backToMp4);
  };
  video.addEventListener("play", onPlay);
  return () => {
    stopped = true;
    video.removeEventListener("play", onPlay);
    stopPlayer?.();
  };
}
