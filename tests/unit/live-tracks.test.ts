import { expect, test } from "vitest";
import { mergeTrackUpdate } from "~/components/arrange/use-live-tracks";

test("a track:updated message merges its fields into the track with that id only", () => {
  const tracks = [
    { id: "a", title: "Ours", status: "processing", waveform: [] as number[] },
    { id: "b", title: "Theirs", status: "ready", waveform: [0.5] },
  ];
  const merged = mergeTrackUpdate(tracks, { id: "a", status: "ready", waveform: [0.1, 0.2] });
  expect(merged).toEqual([
    { id: "a", title: "Ours", status: "ready", waveform: [0.1, 0.2] },
    { id: "b", title: "Theirs", status: "ready", waveform: [0.5] },
  ]);
  expect(merged[1]).toBe(tracks[1]);
  expect(mergeTrackUpdate(tracks, { id: "unknown", status: "failed" })).toEqual(tracks);
});
