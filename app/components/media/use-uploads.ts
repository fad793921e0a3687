import { useCallback, useEffect, useRef, useState } from "react";
import type * as tus from "tus-js-client";
import { downscalePhoto } from "~/lib/browser/downscale-photo";
import type { KeptFile } from "~/lib/browser/kept-files";
import { forgetUpload, saveUpload, storedUploads, uploadToken, type StoredUpload } from "~/lib/browser/upload-store";
import type * as UploadClient from "./upload-client";

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  type: string;
  bytesSent: number;
  /** `refused`: judged by its first bytes to be no photo or video, and never sent. */
  state: "preparing" | "uploading" | "paused" | "done" | "failed" | "cancelled" | "refused";
  downscaled: boolean;
  error?: string;
  mediaUuid?: string;
  /** Picked on an earlier visit of the page, kept in the browser and sent on by itself. */
  resumed?: boolean;
  /** Stopped by the network, not by the server: tried again by itself when the browser is back online. */
  retryable?: boolean;
}

export interface UploadContext {
  eventUuid: string;
  purpose: "contribution" | "thank_you";
  contributorName: string;
  caption: string;
  invite?: string;
  privateKey?: string;
}

/**
 * What keeps picked files in the browser (kept-files.ts), fetched when first needed: when the page
 * opens with unfinished uploads from an earlier visit, or when a file is picked.
 */
const keptFilesModule = () => import("~/lib/browser/kept-files");

/**
 * Fetches what sending a file needs before any is picked, once the page has been kept for use offline
 * (offline-page.ts): a file picked or kept can then be sent from the offline copy of the page.
 */
export const warmUploadModules = () => Promise.all([loadUploader(), keptFilesModule()]);

let uploader: Promise<typeof UploadClient> | null = null;
/** The upload client (upload-client.ts), fetched once; a failed fetch is tried again next time. */
export function loadUploader() {
  uploader ??= import("./upload-client").catch((error: unknown) => {
    uploader = null;
    throw error;
  });
  return uploader;
}

/** What the form says when a file is sent: its name and words go up with the file. */
export type SentWords = Pick<UploadContext, "contributorName" | "caption">;

/**
 * Holds a lock named after an upload while this tab sends it (Web Locks, where the browser has
 * them), so a second tab of the same page does not send the same kept file at the same time.
 * Resolves with its release, or null when another tab holds it.
 */
function holdUploadLock(fingerprint: string): Promise<(() => void) | null> {
  if (typeof navigator === "undefined" || !navigator.locks) return Promise.resolve(() => {});
  return new Promise((resolve) => {
    void navigator.locks
      .request(`chorus-upload:${fingerprint}`, { ifAvailable: true }, (lock) => {
        if (!lock) return resolve(null);
        return new Promise<void>((release) => resolve(() => release()));
      })
      .catch(() => resolve(() => {}));
  });
}

const newItemId = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/**
 * Resumable uploads with tus: chunked, retried with backoff, resumed from the
 * server's offset after a dropped connection, a reload or a server restart. Each file is kept
 * in the browser until the server has it (kept-files.ts), so when the page opens again its
 * upload carries on by itself; state is mirrored in localStorage.
 */
export function useUploads(context: UploadContext) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [interrupted, setInterrupted] = useState<StoredUpload[]>([]);
  const uploads = useRef(new Map<string, { upload: tus.Upload; file: File; fingerprint: string }>());
  /** Every file as it was picked, so one whose upload never started can be retried. */
  const picked = useRef(new Map<string, File>());
  /** The lock of each upload this tab is sending, released when it ends. */
  const locks = useRef(new Map<string, () => void>());
  /** The fingerprint of each item sent on from an earlier visit, to free it if cancelled before it starts. */
  const keptIds = useRef(new Map<string, string>());
  /** Why the browser could not keep a file, by fingerprint, for the page's next visit to say. */
  const notKept = useRef(new Map<string, string>());
  const contextRef = useRef(context);
  contextRef.current = context;

  const patch = useCallback((id: string, changes: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...changes } : item)));
  }, []);

  const persist = (item: UploadItem, fingerprint: string, state: StoredUpload["state"]) =>
    saveUpload({
      fingerprint,
      eventUuid: contextRef.current.eventUuid,
      name: item.name,
      size: item.size,
      type: item.type,
      purpose: contextRef.current.purpose,
      state,
      bytesSent: item.bytesSent,
      mediaUuid: item.mediaUuid,
      error: item.error,
      notKept: notKept.current.get(fingerprint),
      updatedAt: Date.now(),
    });

  /** The file is on the server, cancelled or refused: free what the browser kept of it. */
  const release = useCallback((fingerprint: string) => {
    void keptFilesModule()
      .then((kept) => kept.forgetKeptFile(fingerprint))
      .catch(() => undefined);
    locks.current.get(fingerprint)?.();
    locks.current.delete(fingerprint);
  }, []);

  const start = useCallback(
    async (id: string, file: File, client: typeof UploadClient, words?: SentWords, kept?: KeptFile) => {
      const ctx = { ...contextRef.current, ...words };
      const upload = client.createUpload(
        file,
        {
          eventUuid: ctx.eventUuid,
          filename: file.name,
          filetype: file.type,
          contributorName: ctx.contributorName,
          caption: ctx.caption,
          purpose: ctx.purpose,
          uploadToken: uploadToken(),
          ...(ctx.invite ? { invite: ctx.invite } : {}),
          ...(ctx.privateKey ? { privateKey: ctx.privateKey } : {}),
        },
        {
          onProgress: (sent) => patch(id, { bytesSent: sent, state: "uploading" }),
          // The connection dropped; tus-js-client tries again after a delay, or at once when back online (below).
          onWaiting: () => patch(id, { state: "paused" }),
          onMediaId: (mediaUuid) => patch(id, { mediaUuid }),
          onSuccess: () => {
            void client.fingerprintOf(upload, file).then(release);
            setItems((list) =>
              list.map((item) => {
                if (item.id !== id) return item;
                const done = { ...item, state: "done" as const, bytesSent: item.size };
                void client.fingerprintOf(upload, file).then((fp) => persist(done, fp, "done"));
                return done;
              }),
            );
          },
          onError: (message, refused) => {
            // A file the server answered with a refusal will not be taken on a later visit either;
            // one cut off by the network stays kept and is sent on when the page opens again.
            if (refused) void client.fingerprintOf(upload, file).then(release);
            setItems((list) =>
              list.map((item) => {
                if (item.id !== id) return item;
                const failed = { ...item, state: "failed" as const, error: message, retryable: !refused };
                void client.fingerprintOf(upload, file).then((fp) => persist(failed, fp, "failed"));
                return failed;
              }),
            );
          },
        },
      );
      const fingerprint = await client.fingerprintOf(upload, file);
      uploads.current.set(id, { upload, file, fingerprint });
      if (!locks.current.has(fingerprint)) {
        const unlock = await holdUploadLock(fingerprint);
        if (unlock) locks.current.set(fingerprint, unlock);
      }
      const previous = await upload.findPreviousUploads();
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      const item: UploadItem = {
        id,
        name: file.name,
        size: file.size,
        type: file.type,
        bytesSent: 0,
        state: "uploading",
        downscaled: false,
      };
      persist(item, fingerprint, "uploading");
      setInterrupted((list) => list.filter((u) => u.fingerprint !== fingerprint));
      // Kept before its first byte goes, so a page closed from now on sends it on when opened again.
      const sent = { contributorName: ctx.contributorName, caption: ctx.caption };
      if (!kept) {
        const keeping = await keptFilesModule().catch(() => null);
        const refusal = keeping
          ? await keeping.keepFile({ fingerprint, eventUuid: ctx.eventUuid, purpose: ctx.purpose, ...sent, file }).then(
              () => null,
              (error: unknown) => (error instanceof keeping.NotKept ? error.message : "this browser could not keep it"),
            )
          : "the page could not load what keeps it";
        if (refusal) {
          notKept.current.set(fingerprint, refusal);
          persist(item, fingerprint, "uploading");
        }
      }
      upload.start();
    },
    [patch, release],
  );

  /**
   * Checks a picked file, shrinks a large photo and starts its upload. The upload client loads with
   * the first file, not with the page; on a link that drops it, the file fails with a Retry that
   * loads it again.
   */
  const prepare = useCallback(
    async (id: string, original: File, words?: SentWords) => {
      const client = await loadUploader().catch(() => null);
      if (!client) {
        patch(id, { state: "failed", error: "We couldn't start this upload. Check your connection and press Retry.", retryable: true });
        return;
      }
      const { refusal, signature } = await client.judgeFirstBytes(original);
      if (refusal) {
        patch(id, { state: "refused", error: refusal.message });
        return;
      }
      // Some phones give HEIC photos no type: the server sizes its limit by the type it is told.
      const typed =
        original.type || !signature
          ? original
          : new File([original], original.name, { type: signature.mime, lastModified: original.lastModified });
      const { file, downscaled } = await downscalePhoto(typed);
      patch(id, { size: file.size, downscaled, state: "uploading" });
      await start(id, file, client, words);
    },
    [patch, start],
  );

  /** Sends files picked or recorded; `words` stand for the form's when it has not caught up with them yet. */
  const add = useCallback(
    async (files: File[], words?: SentWords) => {
      for (const original of files) {
        const id = newItemId();
        picked.current.set(id, original);
        setItems((list) => [
          ...list,
          { id, name: original.name, size: original.size, type: original.type, bytesSent: 0, state: "preparing", downscaled: false },
        ]);
        await prepare(id, original, words);
      }
    },
    [prepare],
  );

  // When the page opens, the files kept from an earlier visit are sent on from the server's offset;
  // uploads interrupted without a kept file are listed, with the reason, to be picked again.
  const { eventUuid, purpose } = context;
  useEffect(() => {
    let gone = false;
    void (async () => {
      const stored = storedUploads(eventUuid, purpose);
      const kept = [];
      // Files are kept only while their upload is unfinished: with none, there is nothing to load.
      const unfinished = stored.some((u) => u.state !== "done");
      const keeping = unfinished ? await keptFilesModule().catch(() => null) : null;
      for (const file of keeping ? await keeping.keptFiles(eventUuid, purpose) : []) {
        if (stored.some((u) => u.fingerprint === file.fingerprint && u.state === "done")) void keeping!.forgetKeptFile(file.fingerprint);
        else kept.push(file);
      }
      if (gone) return;
      const resuming = new Set(kept.map((k) => k.fingerprint));
      setInterrupted(stored.filter((u) => u.state !== "done" && !resuming.has(u.fingerprint)));
      for (const entry of kept) {
        // Another tab of this page is already sending it.
        const unlock = await holdUploadLock(entry.fingerprint);
        if (!unlock) continue;
        if (gone) return unlock();
        locks.current.set(entry.fingerprint, unlock);
        const { file } = entry;
        const id = newItemId();
        picked.current.set(id, file);
        keptIds.current.set(id, entry.fingerprint);
        const item: UploadItem = {
          id,
          name: file.name,
          size: file.size,
          type: file.type,
          bytesSent: 0,
          state: "preparing",
          downscaled: false,
        };
        setItems((list) => [...list, { ...item, resumed: true }]);
        const client = await loadUploader().catch(() => null);
        if (!client) {
          patch(id, { state: "failed", error: "We couldn't start this upload. Check your connection and press Retry.", retryable: true });
          continue;
        }
        await start(id, file, client, { contributorName: entry.contributorName, caption: entry.caption }, entry);
      }
    })();
    return () => {
      gone = true;
    };
  }, [eventUuid, purpose, patch, start]);

  const retry = useCallback(
    (id: string) => {
      const entry = uploads.current.get(id);
      if (entry) {
        patch(id, { state: "uploading", error: undefined, retryable: undefined });
        entry.upload.start();
        return;
      }
      // Its upload never started (the client did not load): begin again from the file picked.
      const original = picked.current.get(id);
      if (!original) return;
      patch(id, { state: "preparing", error: undefined, retryable: undefined });
      void prepare(id, original);
    },
    [patch, prepare],
  );

  // Offline: what is being sent stops at once and waits (a request cut off by a lost signal can hang
  // for minutes before it fails). Back online: what the network stopped goes on at once, from the
  // server's offset, rather than at its next retry (up to a minute away) or at a press of Retry.
  const itemsNow = useRef(items);
  itemsNow.current = items;
  useEffect(() => {
    const pause = () => {
      for (const item of itemsNow.current) {
        const entry = uploads.current.get(item.id);
        if (item.state === "uploading" && entry) {
          patch(item.id, { state: "paused" });
          void entry.upload.abort(false);
        }
      }
    };
    const resume = () => {
      for (const item of itemsNow.current) {
        const entry = uploads.current.get(item.id);
        if (item.state === "paused" && entry) {
          patch(item.id, { state: "uploading" });
          void entry.upload.abort(false).then(() => entry.upload.start());
        } else if (item.state === "failed" && item.retryable) retry(item.id);
      }
    };
    window.addEventListener("offline", pause);
    window.addEventListener("online", resume);
    return () => {
      window.removeEventListener("offline", pause);
      window.removeEventListener("online", resume);
    };
  }, [patch, retry]);

  const cancel = useCallback(
    async (id: string) => {
      const entry = uploads.current.get(id);
      patch(id, { state: "cancelled" });
      const fingerprint = entry?.fingerprint ?? keptIds.current.get(id);
      if (fingerprint) release(fingerprint);
      if (!entry) return;
      await entry.upload.abort(true).catch(() => {});
      forgetUpload(entry.fingerprint);
    },
    [patch, release],
  );

  const counted = (item: UploadItem) => item.state !== "cancelled" && item.state !== "refused";
  const totalBytes = items.filter(counted).reduce((sum, i) => sum + i.size, 0);
  const sentBytes = items.filter(counted).reduce((sum, i) => sum + i.bytesSent, 0);
  return { items, interrupted, add, retry, cancel, overall: totalBytes ? sentBytes / totalBytes : 0 };
}
