// Loaded beside hls.js when the recipient presses play (use-video-stream.ts): while hls.js itself
// is still on its way, the smallest rung's playlist, init file and first segment are fetched, so
// hls.js finds them in the browser's cache. hls.js starts from that rung (hls-player.ts); on a
// slow link this saves the round trips it would otherwise make one after another.

/** The first address in a playlist (the smallest rung in a master playlist, the first segment in a rung's). */
const firstAddress = (playlist: string) =>
  playlist
    .split("\n")
    .find((line) => line.trim() && !line.startsWith("#"))
    ?.trim();

const text = async (url: URL) => (await fetch(url, { credentials: "same-origin" })).text();

export async function warmUp(masterUrl: string) {
  const master = new URL(masterUrl, window.location.href);
  const rung = firstAddress(await text(master));
  if (!rung) return;
  const rungUrl = new URL(rung, master);
  const playlist = await text(rungUrl);
  const wanted = [/#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1], firstAddress(playlist)];
  await Promise.all(wanted.filter((uri): uri is string => !!uri).map((uri) => fetch(new URL(uri, rungUrl)).then((r) => r.arrayBuffer())));
}
