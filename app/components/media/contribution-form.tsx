import { useEffect, useRef, useState, type FormEvent } from "react";
import { useNonce } from "~/components/nonce";
import { AlertIcon } from "~/components/ui/icons";
import { PHOTO_MAX_EDGE } from "~/lib/browser/downscale-photo";
import { connectRealtime } from "~/realtime/client";
import { ClipRecorder } from "./clip-recorder";
import { EARLY_PRESS_SCRIPT } from "./early-press";
import { loadUploader, useUploads, type SentWords, type UploadContext } from "./use-uploads";

export interface UploadLimits {
  maxVideoBytes: number;
  maxPhotoBytes: number;
  maxClipSeconds: number;
}

const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`
    : bytes >= 1024 ** 2
      ? `${Math.round(bytes / 1024 ** 2)} MB`
      : `${Math.round(bytes / 1024)} KB`;

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
 * How a contributor adds photos and clips. The markup is a plain multipart form
 * that works without JavaScript; with it, files go up in resumable chunks with
 * progress, retry and cancel, and a clip can be recorded in the page. Files are kept
 * in the browser until sent, so a closed page sends them on when opened again; a press
 * before the page's script started is held and sent the same way (early-press.ts).
 */
export function ContributionForm(props: {
  eventUuid: string;
  purpose?: UploadContext["purpose"];
  invite?: string;
  privateKey?: string;
  defaultName?: string;
  limits: UploadLimits;
  action: string;
  submitLabel?: string;
  /** Guestbooks take a message on its own; elsewhere a file is needed. */
  guestbook?: boolean;
}) {
  const [hydrated, setHydrated] = useState(false);
  const [name, setName] = useState(props.defaultName ?? "");
  const [caption, setCaption] = useState("");
  const uploader = useUploads({
    eventUuid: props.eventUuid,
    purpose: props.purpose ?? "contribution",
    contributorName: name,
    caption,
    invite: props.invite,
    privateKey: props.privateKey,
  });
  const nonce = useNonce();
  const form = useRef<HTMLFormElement>(null);
  // What was typed before the app started is taken over as it hydrates: the inputs are React's from
  // then on, and its first render would put back the empty values it started with.
  const typedEarly = useRef<SentWords | undefined>(undefined);
  useEffect(() => {
    const element = form.current;
    if (element) {
      const field = (name: string) => (element.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null)?.value ?? "";
      typedEarly.current = { contributorName: field("contributorName"), caption: field("caption") };
      setName(typedEarly.current.contributorName);
      setCaption(typedEarly.current.caption);
    }
    setHydrated(true);
  }, []);

  // Once the app runs (the form then says data-ready), the files of a press it held are sent.
  const { add } = uploader;
  useEffect(() => {
    const element = form.current;
    if (!hydrated || !element?.hasAttribute("data-waiting")) return;
    element.removeAttribute("data-waiting");
    const input = element.elements.namedItem("file") as HTMLInputElement;
    const held = Array.from(input.files ?? []);
    input.value = "";
    if (held.length) void add(held, typedEarly.current);
  }, [hydrated, add]);

  // After the last byte, each file is checked and prepared; its progress arrives on the event's public
  // room, joined once the first file starts (a visitor who only looks never loads the realtime client).
  const [processing, setProcessing] = useState<Record<string, string>>({});
  const uploading = uploader.items.length > 0;
  useEffect(() => {
    if (!uploading) return;
    const socket = connectRealtime("/public");
    socket.on("connect", () => socket.emit("event:join", props.eventUuid));
    socket.on("media:status", ({ mediaUuid, status }) => setProcessing((map) => ({ ...map, [mediaUuid]: status })));
    return () => {
      socket.close();
    };
  }, [props.eventUuid, uploading]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const input = event.currentTarget.elements.namedItem("file") as HTMLInputElement;
    const files = Array.from(input.files ?? []);
    // Words alone, for a guestbook: the plain form post signs it.
    if (!files.length && props.guestbook) return;
    event.preventDefault();
    if (files.length) void uploader.add(files);
    input.value = "";
  }

  const { limits } = props;
  const active = uploader.items.filter((i) => i.state !== "cancelled" && i.state !== "refused");
  const shown = uploader.items.filter((i) => i.state !== "cancelled");
  const resumed = uploader.items.filter((i) => i.resumed && i.state !== "cancelled" && i.state !== "done" && i.state !== "refused");
  const notKept = uploader.interrupted.filter((u) => u.notKept);
  return (
    <>
      <form
        ref={form}
        method="post"
        encType="multipart/form-data"
        action={props.action}
        onSubmit={hydrated ? onSubmit : undefined}
        data-ready={hydrated ? "" : undefined}
        className="contribution-form"
      >
        {props.invite ? <input type="hidden" name="invite" value={props.invite} /> : null}
        {props.privateKey ? <input type="hidden" name="privateKey" value={props.privateKey} /> : null}
        <input type="hidden" name="purpose" value={props.purpose ?? "contribution"} />
        <div className="field">
          <label htmlFor="contributorName">Your name</label>
          <input
            id="contributorName"
            name="contributorName"
            autoComplete="name"
            maxLength={80}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="caption">{props.guestbook ? "Your message" : "A message (optional)"}</label>
          <textarea id="caption" name="caption" rows={3} maxLength={2000} value={caption} onChange={(e) => setCaption(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="file">{props.guestbook ? "Photos and videos (optional)" : "Photos and videos"}</label>
          <input
            id="file"
            name="file"
            type="file"
            accept="image/*,video/*"
            multiple
            required={!hydrated && !props.guestbook}
            // While the person picks their files, the upload client loads.
            onClick={() => void loadUploader().catch(() => undefined)}
          />
          <p className="field-hint">
            Videos up to {formatBytes(limits.maxVideoBytes)} and {Math.round(limits.maxClipSeconds / 60)} minutes; photos up to{" "}
            {formatBytes(limits.maxPhotoBytes)}.{" "}
            {hydrated
              ? `Very large photos are shrunk to ${PHOTO_MAX_EDGE} pixels on your phone before sending, to save your data — the video never needs more.`
              : ""}
          </p>
        </div>
        <div className="row">
          <button className="button" type="submit">
            {props.submitLabel ?? "Upload"}
          </button>
          <p className="form-note contribution-form__waiting" role="status">
            Getting ready to send…
          </p>
          {hydrated ? (
            <ClipRecorder maxSeconds={Math.min(limits.maxClipSeconds, 180)} onRecorded={(file) => void uploader.add([file])} />
          ) : null}
        </div>

        {hydrated && uploader.interrupted.length ? (
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
            Sending the {resumed.length === 1 ? "file" : `${resumed.length} files`} you picked earlier. Cancel any you no longer want to
            send.
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
      </form>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: EARLY_PRESS_SCRIPT }} />
    </>
  );
}
