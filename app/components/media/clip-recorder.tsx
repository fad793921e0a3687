import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { VideoIcon } from "~/components/ui/icons";
import { retryingImport } from "~/lib/browser/retrying-import";
import type { RecorderProps } from "./clip-recorder-session";

// The camera part loads when "Record a clip" is pressed: most contributors pick files instead. A load
// cut off by the link is tried again ("Opening your camera…" meanwhile) rather than failing the page.
const ClipRecorderSession = lazy(() => retryingImport(() => import("./clip-recorder-session")));

/** Records a clip with the phone's camera (MediaRecorder), as an alternative to picking a file. */
export function ClipRecorder(props: RecorderProps) {
  const [state, setState] = useState<"idle" | "open" | "unsupported" | "denied">("idle");

  useEffect(() => {
    if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) setState("unsupported");
  }, []);
  const onClosed = useCallback((denied: boolean) => setState(denied ? "denied" : "idle"), []);

  if (state === "unsupported") return null;
  return (
    <div className="clip-recorder">
      {state === "denied" ? (
        <p className="field-error">We could not open your camera. Allow camera access, or pick a video instead.</p>
      ) : null}
      {state === "open" ? (
        <Suspense fallback={<p className="field-hint">Opening your camera…</p>}>
          <ClipRecorderSession {...props} onClosed={onClosed} />
        </Suspense>
      ) : (
        <button type="button" className="button button--secondary" onClick={() => setState("open")}>
          <VideoIcon /> Record a clip
        </button>
      )}
    </div>
  );
}
