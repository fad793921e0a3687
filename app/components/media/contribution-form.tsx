import { useCallback, useEffect, useRef, useState, type FormEvent, type RefObject } from "react";
import { useNonce } from "~/components/nonce";
import { retryingModule } from "~/lib/browser/retrying-import";
import { hasUnfinishedUploads } from "~/lib/browser/upload-store";
import { ClipRecorder } from "./clip-recorder";
import { EARLY_TAKE_OVER_MS, earlyUploads } from "./early-uploads";
import { EARLY_UPLOADS_SCRIPT } from "./early-uploads.server";
import type { SentWords, UploadContext } from "./sending-files";
import type * as UploadListModule from "./upload-list";

export interface UploadLimits {
  maxVideoBytes: number;
  maxPhotoBytes: number;
  maxClipSeconds: number;
}

/**
 * Photos are rendered at most 1920×1080; anything past twice that only costs the contributor's data
 * plan, so a larger one is shrunk on the phone before it is sent (downscale-photo.ts).
 */
const PHOTO_MAX_EDGE = 3840;

const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`
    : bytes >= 1024 ** 2
      ? `${Math.round(bytes / 1024 ** 2)} MB`
      : `${Math.round(bytes / 1024)} KB`;

/** The uploads and their list (upload-list.tsx), fetched once, and again after a cut until they arrive. */
const loadUploadList = retryingModule(() => import("./upload-list"));

/**
 * Fetches all that sending a file needs before any is picked, once the page has been kept for use
 * offline (offline-page.ts): a file picked or kept can then be sent from the offline copy of the page.
 */
export const warmUploadModules = () => loadUploadList().then((list) => list.warmUploads());

/** What the form's fields say now. */
function wordsOf(form: HTMLFormElement): SentWords {
  const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null)?.value ?? "";
  return { contributorName: field("contributorName"), caption: field("caption") };
}

/**
 * The uploads and their list load when first needed: when the file input is pressed, with the first
 * file sent (picked, recorded or held from an early press), or as the page opens when an earlier visit
 * left uploads unfinished (to send on, or to list for picking again). Files sent before it has loaded
 * wait for it, the form saying it is getting ready; a load cut off by the link is tried again by
 * itself, and should the files still wait after EARLY_TAKE_OVER_MS, the page's early uploader
 * (early-uploads.server.ts) sends them instead, with its own cards.
 */
function useUploadsOnDemand({ eventUuid, purpose }: Pick<UploadContext, "eventUuid" | "purpose">, form: RefObject<HTMLFormElement>) {
  const [list, setList] = useState<typeof UploadListModule | null>(null);
  /** Whether files wait for it to load. */
  const [pending, setPending] = useState(false);
  const add = useRef<UploadListModule.AddFiles | null>(null);
  const waiting = useRef<Array<Parameters<UploadListModule.AddFiles>>>([]);
  const handOver = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const load = useCallback(() => {
    const loading = loadUploadList();
    void loading.then(setList);
    return loading;
  }, []);

  useEffect(() => {
    if (hasUnfinishedUploads(eventUuid, purpose)) void load();
  }, [eventUuid, purpose, load]);
  useEffect(() => () => clearTimeout(handOver.current), []);

  const onReady = useCallback((ready: UploadListModule.AddFiles) => {
    add.current = ready;
    clearTimeout(handOver.current);
    setPending(false);
    for (const [files, words] of waiting.current.splice(0)) void ready(files, words);
  }, []);

  /** What still waits goes to the early uploader, which sends it without what the app could not load. */
  const handToEarlyUploader = useCallback(() => {
    const early = earlyUploads();
    const element = form.current;
    if (add.current || !early || !element) return;
    for (const [files, words] of waiting.current.splice(0)) early.send(element, files, words ?? wordsOf(element));
    setPending(false);
  }, [form]);

  const send = useCallback(
    (files: File[], words?: SentWords) => {
      if (add.current) return void add.current(files, words);
      waiting.current.push([files, words]);
      setPending(true);
      void load();
      clearTimeout(handOver.current);
      handOver.current = setTimeout(handToEarlyUploader, EARLY_TAKE_OVER_MS);
    },
    [load, handToEarlyUploader],
  );

  /** While the person picks their files, what sends them loads. */
  const prefetch = useCallback(() => void load().then((loaded) => loaded.warmUploads()), [load]);

  return { UploadList: list?.UploadList ?? null, onReady, send, prefetch, pending };
}

/**
 * How a contributor adds photos and clips. The markup is a plain multipart form
 * that works without JavaScript; with it, files go up in resumable chunks with
 * progress, retry and cancel, and a clip can be recorded in the page. Files are kept
 * in the browser until sent, so a closed page sends them on when opened again; a press
 * before the page's script started is held and sent the same way, or by the page's early uploader
 * should the app not start (early-uploads.server.ts).
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
  const purpose = props.purpose ?? "contribution";
  const form = useRef<HTMLFormElement>(null);
  const uploads = useUploadsOnDemand({ eventUuid: props.eventUuid, purpose }, form);
  const nonce = useNonce();
  // What was typed before the app started is taken over as it hydrates: the inputs are React's from
  // then on, and its first render would put back the empty values it started with.
  const typedEarly = useRef<SentWords | undefined>(undefined);
  useEffect(() => {
    const element = form.current;
    if (element) {
      typedEarly.current = wordsOf(element);
      setName(typedEarly.current.contributorName);
      setCaption(typedEarly.current.caption);
    }
    setHydrated(true);
  }, []);

  // Once the app runs (the form then says data-ready), it sends the presses the early uploader held.
  const { send } = uploads;
  useEffect(() => {
    if (!hydrated) return;
    for (const press of earlyUploads()?.claim() ?? []) send(press.files, press.words);
  }, [hydrated, send]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const input = event.currentTarget.elements.namedItem("file") as HTMLInputElement;
    const files = Array.from(input.files ?? []);
    // Words alone, for a guestbook: the plain form post signs it.
    if (!files.length && props.guestbook) return;
    event.preventDefault();
    if (files.length) send(files);
    input.value = "";
  }

  const { limits } = props;
  return (
    <>
      {/* Before the form, so a press is held however early it comes. The browser's copy has no text for it (the module is server-only). */}
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: EARLY_UPLOADS_SCRIPT ?? "" }} />
      <form
        ref={form}
        method="post"
        encType="multipart/form-data"
        action={props.action}
        onSubmit={hydrated ? onSubmit : undefined}
        data-ready={hydrated ? "" : undefined}
        // Files sent before the uploads have loaded: the form says it is getting ready, as for an early press.
        data-waiting={uploads.pending ? "" : undefined}
        data-early-uploads=""
        data-event={props.eventUuid}
        className="contribution-form"
      >
        {props.invite ? <input type="hidden" name="invite" value={props.invite} /> : null}
        {props.privateKey ? <input type="hidden" name="privateKey" value={props.privateKey} /> : null}
        <input type="hidden" name="purpose" value={purpose} />
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
            onClick={uploads.prefetch}
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
          {hydrated ? <ClipRecorder maxSeconds={Math.min(limits.maxClipSeconds, 180)} onRecorded={(file) => send([file])} /> : null}
        </div>

        {/* The early uploader's cards: React never writes inside it, so what the script puts there stays. */}
        <div className="early-uploads" data-early-uploads-list="" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: "" }} />

        {uploads.UploadList ? (
          <uploads.UploadList
            context={{
              eventUuid: props.eventUuid,
              purpose,
              contributorName: name,
              caption,
              invite: props.invite,
              privateKey: props.privateKey,
              photoMaxEdge: PHOTO_MAX_EDGE,
            }}
            onReady={uploads.onReady}
          />
        ) : null}
      </form>
    </>
  );
}
