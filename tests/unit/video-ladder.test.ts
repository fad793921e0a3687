import { describe, expect, test } from "vitest";
import {
  ladderContentType,
  groupParts,
  masterPlaylist,
  mediaPlaylist,
  playlistInit,
  playlistSegments,
  rungBandwidth,
  signPlaylist,
} from "~/render/hls-playlists";
import { forcedKeyFrames, ladderArgs, ladderFromPiecesArgs, ladderRungs, rungPieceArgs, rungPieceSettings } from "~/render/ladder";

const MEDIA_PLAYLIST = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:4
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MAP:URI="360p_init.mp4"
#EXTINF:4.000000,
360p_0000.m4s
#EXTINF:2.500000,
360p_0001.m4s
#EXT-X-ENDLIST
`;

describe("the HLS ladder", () => {
  test("a 1080p video gets four rungs, the top one copied; a 720p one three; sizes stay even", () => {
    expect(ladderRungs(1920, 1080).map((r) => [r.name, r.width, r.height, r.copy])).toEqual([
      ["360p", 640, 360, false],
      ["540p", 960, 540, false],
      ["720p", 1280, 720, false],
      ["1080p", 1920, 1080, true],
    ]);
    expect(ladderRungs(1280, 720).map((r) => r.name)).toEqual(["360p", "540p", "720p"]);
    expect(ladderRungs(1080, 1920).every((r) => r.width % 2 === 0)).toBe(true);
  });

  test("one ffmpeg run reads the video once, encodes the smaller rungs on the same key frames and copies the top", () => {
    const rungs = ladderRungs(1280, 720);
    const args = ladderArgs("in.mp4", "/out", rungs, { keyFrames: "0.000,1.999", hasAudio: true });
    expect(args.filter((a) => a === "-i")).toHaveLength(1);
    expect(args[args.indexOf("-filter_complex") + 1]).toBe(
      "[0:v]split=2[s0][s1];[s0]scale=640:360,setsar=1[v0];[s1]scale=960:540,setsar=1[v1]",
    );
    expect(args.filter((a) => a === "-force_key_frames")).toHaveLength(2);
    expect(args.filter((a) => a === "fmp4")).toHaveLength(3);
    expect(args.slice(-3)).toEqual(["-hls_segment_filename", "/out/720p_part%04d.m4s", "/out/720p_parts.m3u8"]);
    const top = args.slice(args.lastIndexOf("0:v:0"));
    expect(top).toContain("copy");
    expect(top).not.toContain("libx264");
    expect(forcedKeyFrames([0, 2, 4.0333])).toBe("0.000,1.999,4.032");
  });

  test("a rung piece: the full-size piece decoded once, each smaller rung encoded as the ladder encodes it, key frames at its own", () => {
    const rungs = ladderRungs(1280, 720);
    const outputs = { "360p": "/w/360p.mp4", "540p": "/w/540p.mp4" };
    const args = rungPieceArgs("piece.mp4", outputs, rungs, { keyFrames: [0, 60], timescale: "15360" });
    const whole = ladderArgs("in.mp4", "/out", rungs, { keyFrames: "0.000,1.999", hasAudio: true });
    expect(args.filter((a) => a === "-i")).toHaveLength(1);
    // The same scaling and the same encoder settings as the ladder made from the whole video.
    expect(args[args.indexOf("-filter_complex") + 1]).toBe(whole[whole.indexOf("-filter_complex") + 1]);
    const encoderOf = (list: string[], from: number) =>
      list.slice(list.indexOf("libx264", from) - 1, list.indexOf("-force_key_frames", from));
    expect(encoderOf(args, 0)).toEqual(encoderOf(whole, 0));
    expect(args[args.indexOf("-force_key_frames") + 1]).toBe("expr:eq(n,0)+eq(n,60)");
    expect(args).not.toContain("-c:a");
    expect(args.filter((a) => a === "mp4")).toHaveLength(2);
    expect(args.at(-1)).toBe("/w/540p.mp4");
    // The settings its key hashes move with the encoder's.
    expect(rungPieceSettings(rungs, "15360")).toEqual(rungPieceSettings(rungs, "15360"));
    expect(rungPieceSettings(rungs, "15360")).not.toEqual(rungPieceSettings(ladderRungs(1920, 1080), "15360"));
  });

  test("a ladder from rung pieces joins each rung's pieces and copies them; only the sound is encoded", () => {
    const rungs = ladderRungs(1280, 720);
    const args = ladderFromPiecesArgs("in.mp4", { "360p": "/w/360p.txt", "540p": "/w/540p.txt" }, "/out", rungs, { hasAudio: true });
    expect(args.filter((a) => a === "concat")).toHaveLength(2);
    expect(args.slice(args.lastIndexOf("-i"), args.lastIndexOf("-i") + 2)).toEqual(["-i", "in.mp4"]);
    expect(args).not.toContain("libx264");
    expect(args).not.toContain("-filter_complex");
    expect(args.filter((a) => a === "aac")).toHaveLength(2);
    expect(args.slice(args.indexOf("0:v:0"), args.indexOf("0:v:0") + 4)).toEqual(["0:v:0", "-map", "2:a:0", "-c:v"]);
    const top = args.slice(args.indexOf("2:v:0"));
    expect(top.slice(0, 5)).toEqual(["2:v:0", "-map", "2:a:0", "-c", "copy"]);
    expect(args.filter((a) => a === "fmp4")).toHaveLength(3);
  });

  test("the first segment stays one short part; the others join parts to about four seconds", () => {
    expect(groupParts([2, 2, 2, 2, 2, 1])).toEqual([[0], [1, 2], [3, 4], [5]]);
    expect(groupParts([2.5, 3.3, 2, 5, 2])).toEqual([[0], [1, 2], [3], [4]]);
    const playlist = mediaPlaylist("360p_init.mp4", [
      { uri: "360p_0000.m4s", seconds: 2 },
      { uri: "360p_0001.m4s", seconds: 5.3 },
    ]);
    expect(playlist).toContain("#EXT-X-TARGETDURATION:5\n");
    expect(playlistSegments(playlist)).toEqual([
      { uri: "360p_0000.m4s", seconds: 2 },
      { uri: "360p_0001.m4s", seconds: 5.3 },
    ]);
    expect(playlistInit(playlist)).toBe("360p_init.mp4");
    expect(playlist.trimEnd().endsWith("#EXT-X-ENDLIST")).toBe(true);
  });

  test("playlists are read back, measured and signed", () => {
    expect(playlistSegments(MEDIA_PLAYLIST)).toEqual([
      { uri: "360p_0000.m4s", seconds: 4 },
      { uri: "360p_0001.m4s", seconds: 2.5 },
    ]);
    expect(playlistInit(MEDIA_PLAYLIST)).toBe("360p_init.mp4");
    expect(
      rungBandwidth([
        { seconds: 4, bytes: 250_000 },
        { seconds: 2, bytes: 50_000 },
      ]),
    ).toEqual({ bandwidth: 500_000, averageBandwidth: 400_000 });

    const signed = signPlaylist(MEDIA_PLAYLIST, "exp=1&sig=abc");
    expect(signed).toContain('#EXT-X-MAP:URI="360p_init.mp4?exp=1&sig=abc"');
    expect(signed).toContain("\n360p_0001.m4s?exp=1&sig=abc\n");
    expect(signed).toContain("#EXTINF:2.500000,\n");

    const master = masterPlaylist(
      [
        { name: "720p", width: 1280, height: 720, bandwidth: 2_000_000, averageBandwidth: 1_500_000, codecs: "avc1.64001f,mp4a.40.2" },
        { name: "360p", width: 640, height: 360, bandwidth: 500_000, averageBandwidth: 400_000, codecs: "avc1.64001e,mp4a.40.2" },
      ],
      30,
    );
    expect(master.split("\n").slice(3, 5)).toEqual([
      '#EXT-X-STREAM-INF:BANDWIDTH=500000,AVERAGE-BANDWIDTH=400000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",FRAME-RATE=30.000',
      "360p.m3u8",
    ]);
    expect(ladderContentType("master.m3u8")).toBe("application/vnd.apple.mpegurl");
    expect(ladderContentType("360p_0001.m4s")).toBe("video/iso.segment");
    expect(ladderContentType("360p_init.mp4")).toBe("video/mp4");
  });
});
