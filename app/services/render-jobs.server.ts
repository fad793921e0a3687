/** The render.run job: renders a render job's plan and, when asked, publishes it. */
export async function runRenderJob(_renderJobId: string, _options: { finalAttempt?: boolean } = {}) {
  throw new Error("Rendering is not built yet.");
}

/** The render.prepare job: renders the pieces of an event's current plan ahead of publishing. */
export async function prepareEventPieces(_eventId: string) {}
