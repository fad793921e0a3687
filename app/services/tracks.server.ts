/** The track.process job: probe, loudness, duration and waveform of a music track. */
export async function processTrack(_trackId: string, _options: { finalAttempt?: boolean } = {}) {
  throw new Error("Track processing is not built yet.");
}
