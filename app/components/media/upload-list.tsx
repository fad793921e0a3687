import { useEffect, useState } from "react";
import { AlertIcon } from "~/components/ui/icons";
import { connectRealtime } from "~/realtime/client";
import { ClipAdviceNote } from "./clip-advice-note";
import type { SentWords, UploadContext } from "./sending-files";
import { keptFilesModule, loadUploader } from "./upload-modules";
import { useUploads } from "./use-uploads";

// What sends the contribution form's files and shows them going: the uploads (use-uploads.ts) and
// their list. contribution-form.tsx loads this module when it is first needed (upload-modules.ts),
// not with the page: a visitor who only looks never downloads it.

const STATE_TEXT = {
  preparing: "Preparing…",
  uploading: "Uploading",
  paused: "Waiting for signal",
  done: "Uploaded ✓",
  failed: "Failed",
  cancelled: "Cancelled",
  refused: "Not sent",
} as const;
const PROCESSING_TEXT: Record<string, string> = {
  uploaded: "Uploaded ✓",
  processing: "Getting it ready…",
  ready: "Ready ✓",
  failed: "We could not use this file",
};

const files = (count: number) => (count === 1 ? "file" : "files");

/**
 * Fetches what sending a file needs beyond this module: when the file input is pressed, and for the
 * copy of the page kept for use offline (offline-page.ts), so a file picked there can be sent.
 */
export const warmUploads = () => Promise.all([loadUploader(), keptFilesModule()]);

export type AddFiles = (files: File[], words?: SentWords) => Promise<void>;

/**
 * The files being sent, with progress, Retry and Cancel; the files of an earlier visit sent on by
 * themselves; the interrupted uploads to pick again. `onReady` hands the form what sends a file.
 */
export function UploadList({ context, onReady }: { context: UploadContext; onReady: (add: AddFiles) => void }) {
  const uploader = useUploads(context);
  const { add } = uploader;
  useEffect(() => onReady(add), [onReady, add]);

  // After the last byte, each file is checked and prepared; its progress arrives on the event's public
  // room, joined once the first file starts.
  const [processing, setProcessing] = useState<Record<string, string>>({});
  const uploading = uploader.items.length > 0;
  const { eventUuid } = context;
  useEffect(() => {
    if (!uploading) return;
    const socket = connectRealtime("/public");
    socket.on("connect", () => socket.emit("event:join", eventUuid));
    socket.on("media:status", ({ mediaUuid, status }) => setProcessing((map) => ({ ...map, [mediaUuid]: status })));
    return () => {
      socket.close();
    };
  }, [eventUuid, uploading]);

  const active = uploader.items.filter((i) => i.state !== "cancelled" && i.state !== "refused");
  const shown = uploader.items.filter((i) => i.state !== "cancelled");
  const resumed = uploader.items.filter((i) => i.resumed && i.state !== "cancelled" && i.state !== "done" && i.state !== "refused");
  const notKept = uploader.interrupted.filter((u) => u.notKept);
  return (
    <>
      {uploader.interrupted.length ? (
        <div className="form-note" role="status">
          {uploader.interrupted.length === 1 ? "An upload was" : `${uploader.interrupted.length} uploads were`} interrupted:{" "}
          {uploader.interrupted.map((u) => u.name).join(", ")}. Choose the same {files(uploader.interrupted.length)} again and{" "}
          {uploader.interrupted.length === 1 ? "it continues" : "they continue"} from where{" "}
          {uploader.interrupted.length === 1 ? "it" : "they"} stopped.
          {notKept.map((u) => (
            <span key={u.fingerprint}>
              {" "}
              Your browser could not keep {u.name} to send it on by itself: {u.notKept}.
            </span>
          ))}
        </div>
      ) : null}

      {resumed.length ? (
        <p className="form-note" role="status">
          Sending the {resumed.length === 1 ? "file" : `${resumed.length} files`} you picked earlier. Cancel any you no longer want to send.
        </p>
      ) : null}

      {shown.length ? (
        <section aria-live="polite" className="upload-list">
          {active.length ? (
            <>
              <p>
                <strong>{Math.round(uploader.overall * 100)}%</strong> of {active.length} {active.length === 1 ? "file" : "files"}
              </p>
              <progress max={1} value={uploader.overall} aria-label="Overall upload progress" />
            </>
          ) : null}
          <ul>
            {uploader.items.map((item) => (
              <li key={item.id} className={`upload-item upload-item--${item.state}`}>
                <div className="upload-item__head">
                  <span className="upload-item__name">{item.name}</span>
                  <span className="upload-item__state">
                    {item.state === "failed" || item.state === "refused" ? (
                      <AlertIcon className="upload-item__error-icon" size={16} strokeWidth={2.2} />
                    ) : null}
                    {item.state === "done" && item.mediaUuid && processing[item.mediaUuid]
                      ? PROCESSING_TEXT[processing[item.mediaUuid]!]
                      : STATE_TEXT[item.state]}
                    {item.state === "uploading" || item.state === "paused"
                      ? ` ${Math.round((item.bytesSent / Math.max(item.size, 1)) * 100)}%`
                      : ""}
                  </span>
                </div>
                {/* A stopped file shows its reason, not a bar that looks like progress. */}
                {item.state === "refused" || item.state === "failed" ? null : (
                  <progress max={Math.max(item.size, 1)} value={item.bytesSent} aria-label={`Progress of ${item.name}`} />
                )}
                {item.downscaled ? <p className="field-hint">Shrunk on your phone before sending.</p> : null}
                {item.alreadySent ? <p className="field-hint">You sent this file earlier: it is not sent again.</p> : null}
                {item.state === "done" && item.mediaUuid && processing[item.mediaUuid] === "ready" ? (
                  <ClipAdviceNote mediaUuid={item.mediaUuid} onRecorded={(picked) => void add(picked)} />
                ) : null}
                {item.error ? <p className="field-error">{item.error}</p> : null}
                <div className="row">
                  {item.state === "failed" ? (
                    <button type="button" className="button button--secondary" onClick={() => uploader.retry(item.id)}>
                      Retry
                    </button>
                  ) : null}
                  {item.state === "uploading" || item.state === "preparing" || item.state === "paused" || item.state === "failed" ? (
                    <button type="button" className="button--link button" onClick={() => void uploader.cancel(item.id)}>
                      Cancel
                    </button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
