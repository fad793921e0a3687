// The playlists of a published video's HLS ladder (docs/decisions/036), pure: reading what ffmpeg
// wrote, grouping its parts into segments, writing the media and master playlists, signing them
// for the page's link, and how each file is served.

import type { LadderRung } from "drizzle/schema";
import { rungFiles } from "./ladder";

/** Target length of a segment. Segments end on the published video's own key frames (every 2 s). */
const SEGMENT_SECONDS = 4;

/** The segments a media playlist lists, in order, with their durations in seconds. */
export function playlistSegments(text: string) {
  const segments: Array<{ uri: string; seconds: number }> = [];
  let seconds: number | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("#EXTINF:")) seconds = Number.parseFloat(line.slice("#EXTINF:".length));
    else if (line && !line.startsWith("#")) {
      segments.push({ uri: line, seconds: seconds ?? 0 });
      seconds = null;
    }
  }
  return segments;
}

/**
 * Which parts make each segment (indices into `partSeconds`): the first part alone, then parts
 * joined until a segment is about SEGMENT_SECONDS. The same durations give the same segments, so
 * rungs cut at the same frames stay aligned.
 */
export function groupParts(partSeconds: readonly number[]) {
  const groups: number[][] = [];
  let current: number[] = [];
  let seconds = 0;
  partSeconds.forEach((duration, index) => {
    current.push(index);
    seconds += duration;
    if (index === 0 || seconds >= SEGMENT_SECONDS - 0.5) {
      groups.push(current);
      current = [];
      seconds = 0;
    }
  });
  if (current.length) groups.push(current);
  return groups;
}

/** A rung's VOD media playlist: its init file and its segments with their durations. */
export function mediaPlaylist(init: string, segments: ReadonlyArray<{ uri: string; seconds: number }>) {
  const target = Math.max(1, ...segments.map((s) => Math.round(s.seconds)));
  return [
    "#EXTM3U",
    "#EXT-X-VERSION:7",
    `#EXT-X-TARGETDURATION:${target}`,
    "#EXT-X-MEDIA-SEQUENCE:0",
    "#EXT-X-PLAYLIST-TYPE:VOD",
    "#EXT-X-INDEPENDENT-SEGMENTS",
    `#EXT-X-MAP:URI="${init}"`,
    ...segments.flatMap((s) => [`#EXTINF:${s.seconds.toFixed(6)},`, s.uri]),
    "#EXT-X-ENDLIST",
    "",
  ].join("\n");
}

/** The init file a fMP4 media playlist names (#EXT-X-MAP). */
export function playlistInit(text: string) {
  return /#EXT-X-MAP:URI="([^"]+)"/.exec(text)?.[1] ?? null;
}

/**
 * BANDWIDTH (the peak bit rate of any segment) and AVERAGE-BANDWIDTH of a rung, from its segments'
 * sizes and durations. A player picks a rung whose BANDWIDTH its link carries.
 */
export function rungBandwidth(segments: ReadonlyArray<{ seconds: number; bytes: number }>) {
  let peak = 0;
  let bytes = 0;
  let seconds = 0;
  for (const s of segments) {
    if (s.seconds > 0) peak = Math.max(peak, (s.bytes * 8) / s.seconds);
    bytes += s.bytes;
    seconds += s.seconds;
  }
  const average = seconds > 0 ? (bytes * 8) / seconds : 0;
  return { bandwidth: Math.ceil(peak), averageBandwidth: Math.ceil(average) };
}

/** The master playlist: every rung, smallest first, with what a player needs to choose. */
export function masterPlaylist(rungs: readonly LadderRung[], fps: number) {
  const lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"];
  for (const rung of [...rungs].sort((a, b) => a.bandwidth - b.bandwidth)) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${rung.bandwidth},AVERAGE-BANDWIDTH=${rung.averageBandwidth},` +
        `RESOLUTION=${rung.width}x${rung.height},CODECS="${rung.codecs}",FRAME-RATE=${fps.toFixed(3)}`,
      rungFiles(rung.name).playlist,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A stored playlist as it is served: every address in it (the rungs' playlists, init files and
 * segments, all in the same folder) carries the signature of the link it was fetched with.
 */
export function signPlaylist(text: string, query: string) {
  return text
    .split("\n")
    .map((line) => {
      if (line.startsWith("#")) return line.replace(/URI="([^"?]+)"/g, (_, uri: string) => `URI="${uri}?${query}"`);
      return line.trim() ? `${line.trim()}?${query}` : line;
    })
    .join("\n");
}

/** How each file of a ladder is served. */
export function ladderContentType(file: string) {
  if (file.endsWith(".m3u8")) return "application/vnd.apple.mpegurl";
  if (file.endsWith(".m4s")) return "video/iso.segment";
  return "video/mp4";
}
