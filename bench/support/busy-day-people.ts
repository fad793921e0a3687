// The people of a busy day, as the busy-day bench plays them against the app over HTTP:
//   contributors open their link and upload a photo or a clip through tus over a phone's link
//     (the browser's chunk sizes, a HEAD and a resume after a dropped connection);
//   organisers, once their Chorus's contributions are Ready, open the arrange page, change the theme
//     and press Publish, then reload the recipient's page until the video plays;
//   recipients open the event page and stream the HLS video (master, a rung, its segments);
//   readers open public pages.
// Every answer is timed into `Samples` by kind; anything refused or broken is a failure of its kind.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { chunkSizeAfterFailure, FIRST_CHUNK_BYTES, nextChunkSize } from "~/lib/browser/upload-chunk-size";
import type { TestClient } from "../../tests/support/http-client";
import type { PhoneLinkOptions } from "../../tests/support/phone-link";
import { MESSAGES, NAMES } from "../bench-server";
import type { Samples } from "./samples";

export interface BenchChorus {
  id: string;
  uuid: string;
  privateKey: string;
  organiser: TestClient;
  /** Contributions uploaded to it, by media uuid: when their last byte was answered. */
  uploaded: Map<string, number>;
  expected: number;
}

export interface Contribution {
  file: string;
  kind: "photo" | "clip";
}

const PHONE_HEADERS = {
  "user-agent":
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148",
  "accept-encoding": "gzip, deflate, br",
};

/** A page as a browser opens it: the whole answer read; timed as `page` and as `page: {name}`. */
export async function openPage(samples: Samples, baseUrl: string, name: string, address: string, client?: TestClient) {
  const started = performance.now();
  try {
    const response = client
      ? await client.raw("GET", address, { headers: PHONE_HEADERS })
      : await fetch(new URL(address, baseUrl), { headers: PHONE_HEADERS, redirect: "manual" });
    const html = await response.text();
    if (response.status !== 200) throw new Error(`${address} answered ${response.status}`);
    const ms = performance.now() - started;
    samples.add("page", ms);
    samples.add(`page: ${name}`, ms);
    return html;
  } catch (error) {
    samples.fail(`page: ${name}`, error);
    return null;
  }
}

/**
 * One contributor: opens the link, then uploads `contribution` through a phone link of its own,
 * chunk by chunk as use-uploads.ts does. A chunk's answer time is its request's time less the time
 * its bytes needed on the link (size over the link's rate, plus a round trip): what the server added.
 */
export async function contribute(
  samples: Samples,
  baseUrl: string,
  chorus: BenchChorus,
  contribution: Contribution,
  link: PhoneLinkOptions,
) {
  const { startPhoneLink } = await import("../../tests/support/phone-link");
  const { create, headReply, patch } = await import("../../tests/support/tus-client");
  const page = await openPage(samples, baseUrl, "contributor", `/e/${chorus.uuid}`);
  if (page === null) return;
  const phone = await startPhoneLink(baseUrl, link);
  try {
    const bytes = await fs.readFile(contribution.file);
    const name = NAMES[crypto.randomInt(NAMES.length)]!;
    const upload = await create(phone.url, bytes.length, {
      eventUuid: chorus.uuid,
      filename: path.basename(contribution.file),
      filetype: contribution.kind === "photo" ? "image/jpeg" : "video/mp4",
      contributorName: name,
      caption: MESSAGES[crypto.randomInt(MESSAGES.length)]!,
      purpose: "contribution",
      uploadToken: crypto.randomBytes(24).toString("base64url"),
    });
    let offset = 0;
    let chunkSize = FIRST_CHUNK_BYTES;
    let failuresInARow = 0;
    let mediaUuid: string | null = null;
    let resuming = false;
    while (offset < bytes.length || resuming) {
      const started = performance.now();
      try {
        if (resuming) {
          // The browser's client: a dropped connection is resumed from the offset the server holds
          // (the last chunk's answer may be what was lost: then the upload is whole, and recorded).
          const held = await headReply(phone.url, upload);
          if (held.status !== 200) throw new Error(`resuming answered ${held.status}`);
          [offset, mediaUuid, resuming] = [held.offset, held.mediaUuid, false];
          samples.add("resume", performance.now() - started);
          continue;
        }
        const chunk = bytes.subarray(offset, offset + chunkSize);
        const answer = await patch(phone.url, upload, offset, chunk);
        const ms = performance.now() - started;
        samples.add("chunk", Math.max(0, ms - (chunk.length * 8) / link.kbitPerSecond - link.roundTripMs));
        chunkSize = nextChunkSize(chunkSize, { bytes: answer.offset - offset, ms });
        [offset, mediaUuid, failuresInARow] = [answer.offset, answer.mediaUuid ?? mediaUuid, 0];
      } catch (error) {
        if (++failuresInARow > 5) throw error;
        chunkSize = chunkSizeAfterFailure();
        resuming = true;
      }
    }
    if (!mediaUuid) throw new Error("the upload completed without a media item");
    chorus.uploaded.set(mediaUuid, Date.now());
  } catch (error) {
    samples.fail("upload", error);
  } finally {
    await phone.close();
  }
}

/** The published video's links as the recipient's page hands them out. */
function videoLinksIn(html: string) {
  const link = (pattern: RegExp) => {
    const found = pattern.exec(html)?.[0];
    return found ? found.replaceAll("\\u0026", "&").replaceAll("&amp;", "&") : null;
  };
  return {
    videoUrl: link(/\/videos\/[\w-]+\/video\?(?:exp=\d+(?:&|\\u0026|&amp;)sig=[\w-]+)/),
    streamUrl: link(/\/videos\/[\w-]+\/hls\/master\.m3u8\?(?:exp=\d+(?:&|\\u0026|&amp;)sig=[\w-]+)/),
  };
}

/**
 * The organiser's part once every contribution is in: the arrange page, a theme, Publish; then the
 * recipient's page reloaded every 2 s until it plays (its MP4's first megabyte answered, as a player
 * starts) and until it streams (HLS). Resolves to the master playlist's address, or null.
 */
export async function publishChorus(samples: Samples, baseUrl: string, chorus: BenchChorus, themeId: string, giveUpAt: number) {
  const arrange = `/e/${chorus.uuid}/arrange`;
  if ((await openPage(samples, baseUrl, "arrange", arrange, chorus.organiser)) === null) return null;
  const expectRedirect = async (what: string, fields: Record<string, string>) => {
    const answer = await samples.timed(`form: ${what}`, async () => {
      const response = await chorus.organiser.form(arrange, fields);
      if (response.status !== 302) throw new Error(`${what} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    });
    return answer !== null;
  };
  if (!(await expectRedirect("theme", { intent: "theme-choose", themeId }))) return null;
  if (!(await expectRedirect("publish", { intent: "render-start", resolution: "720p", publish: "on" }))) return null;
  const pressed = Date.now();
  const recipient = `/e/${chorus.uuid}?privateKey=${chorus.privateKey}`;
  let playing = false;
  while (Date.now() < giveUpAt) {
    const html = await openPage(samples, baseUrl, "recipient", recipient);
    const { videoUrl, streamUrl } = videoLinksIn(html ?? "");
    if (videoUrl && !playing) {
      const response = await fetch(new URL(videoUrl, baseUrl), { headers: { range: "bytes=0-1048575" } });
      await response.arrayBuffer();
      if (response.status !== 206) samples.fail("video", new Error(`the video answered ${response.status}`));
      else samples.add("publish → playing", Date.now() - pressed);
      playing = true;
    }
    if (streamUrl) {
      samples.add("publish → streaming (HLS)", Date.now() - pressed);
      return streamUrl;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  return null;
}

/**
 * A recipient: opens the page, then fetches what a player fetches to play the stream through: the
 * master playlist, its first (smallest) rung's playlist, the init segment and every media segment.
 */
export async function watchStream(samples: Samples, baseUrl: string, chorus: BenchChorus, masterUrl: string) {
  await openPage(samples, baseUrl, "recipient", `/e/${chorus.uuid}?privateKey=${chorus.privateKey}`);
  const get = async (kind: "playlist" | "segment", url: URL) =>
    samples.timed(kind, async () => {
      const response = await fetch(url);
      const body = kind === "playlist" ? await response.text() : String((await response.arrayBuffer()).byteLength);
      if (response.status !== 200) throw new Error(`${url.pathname} answered ${response.status}`);
      return body;
    });
  const master = new URL(masterUrl, baseUrl);
  const listed = await get("playlist", master);
  const rung = listed?.split("\n").find((line) => line && !line.startsWith("#"));
  if (!rung) return;
  const rungUrl = new URL(rung, master);
  const playlist = await get("playlist", rungUrl);
  if (!playlist) return;
  const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1];
  const segments = playlist.split("\n").filter((line) => line && !line.startsWith("#"));
  for (const file of [...(init ? [init] : []), ...segments]) await get("segment", new URL(file, rungUrl));
}
