import Hls from "hls.js/dist/hls.light.mjs";

// Loaded when the recipient presses play on a browser that does not play HLS itself (see
// use-video-stream.ts), with hls.js's light build: no subtitles or DRM, which the video has none of.

/**
 * Plays `streamUrl` (a master playlist) in `video`. hls.js starts from the smallest rung, whose first
 * segment (two seconds) is the quickest picture on any link, measures each segment and moves up or
 * down, never past the player's size in device pixels. `fail` is called on any error it cannot get
 * past. Answers how to stop it.
 */
export function playWithHls(video: HTMLVideoElement, streamUrl: string, fail: () => void) {
  if (!Hls.isSupported()) {
    fail();
    return () => {};
  }
  const hls = new Hls({ capLevelToPlayerSize: true, startLevel: 0 });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    hls.destroy();
  };
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal || stopped) return;
    stop();
    fail();
  });
  hls.on(Hls.Events.MANIFEST_PARSED, () => void video.play().catch(() => {}));
  hls.attachMedia(video);
  hls.loadSource(streamUrl);
  return stop;
}
