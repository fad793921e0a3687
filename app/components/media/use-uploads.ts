import { useCallback, useRef } from "react";
import type { KeptFile } from "~/lib/browser/kept-files";
import { uploadFingerprint } from "~/lib/browser/upload-fingerprint";
import { forgetUpload, saveUpload, sentBefore, uploadToken, type StoredUpload } from "~/lib/browser/upload-store";
import { earlyUploads } from "./early-uploads";
import { holdUploadLock, useSendingFiles, type SentWords, type UploadContext } from "./sending-files";
import { keptFilesModule, loadUploader, type UploadClientModule } from "./upload-modules";
import { usePauseWhileOffline } from "./use-pause-while-offline";
import { useResumeKeptFiles } from "./use-resume-kept-files";
import { newItemId, preparingItem, useUploadList, type UploadItem } from "./use-upload-list";

/**
 * Resumable uploads with tus: chunked, retried with backoff, resumed from the
 * server's offset after a dropped connection, a reload or a server restart. Each file is kept
 * in the browser until the server has it (kept-files.ts), so when the page opens again its
 * upload carries on by itself (use-resume-kept-files.ts); state is mirrored in localStorage.
 * Offline, uploads wait and go on when the browser is back online (use-pause-while-offline.ts).
 */
export function useUploads(context: UploadContext) {
  const list = useUploadList();
  const { patch, update, append, remove, setInterrupted } = list;
  const sending = useSendingFiles();
  const contextRef = useRef(context);
  contextRef.current = context;
  const itemsNow = useRef(list.items);
  itemsNow.current = list.items;

  const persist = useCallback(
    (item: UploadItem, fingerprint: string, state: StoredUpload["state"]) => {
      const picked = sending.picked.get(item.id);
      const pickedFingerprint = picked ? uploadFingerprint(picked) : fingerprint;
      saveUpload({
        fingerprint,
        ...(pickedFingerprint !== fingerprint ? { pickedFingerprint } : {}),
        eventUuid: contextRef.current.eventUuid,
        name: item.name,
        size: item.size,
        type: item.type,
        purpose: contextRef.current.purpose,
        state,
        bytesSent: item.bytesSent,
        mediaUuid: item.mediaUuid,
        error: item.error,
        notKept: sending.notKept.get(fingerprint),
        updatedAt: Date.now(),
      });
    },
    [sending],
  );

  /** The file is on the server, cancelled or refused: free what the browser kept of it. */
  const release = useCallback(
    (fingerprint: string) => {
      void keptFilesModule()
        .then((kept) => kept.forgetKeptFile(fingerprint))
        .catch(() => undefined);
      sending.locks.get(fingerprint)?.();
      sending.locks.delete(fingerprint);
    },
    [sending],
  );

  const start = useCallback(
    async (id: string, file: File, client: UploadClientModule, words?: SentWords, kept?: KeptFile) => {
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
          // The connection dropped; tus-js-client tries again after a delay, or at once when back online (use-pause-while-offline.ts).
          onWaiting: () => patch(id, { state: "paused" }),
          onMediaId: (mediaUuid) => patch(id, { mediaUuid }),
          onSuccess: () => {
            void client.fingerprintOf(upload, file).then(release);
            update(id, (item) => {
              const done = { ...item, state: "done" as const, bytesSent: item.size };
              void client.fingerprintOf(upload, file).then((fp) => persist(done, fp, "done"));
              return done;
            });
          },
          onError: (message, refused) => {
            // A file the server answered with a refusal will not be taken on a later visit either;
            // one cut off by the network stays kept and is sent on when the page opens again.
            if (refused) void client.fingerprintOf(upload, file).then(release);
            update(id, (item) => {
              const failed = { ...item, state: "failed" as const, error: message, retryable: !refused };
              void client.fingerprintOf(upload, file).then((fp) => persist(failed, fp, "failed"));
              return failed;
            });
          },
        },
      );
      const fingerprint = await client.fingerprintOf(upload, file);
      // A file picked again while this page sends it on from an earlier visit: its card is there already.
      if (!kept && sending.locks.has(fingerprint)) {
        sending.picked.delete(id);
        return remove(id);
      }
      sending.uploads.set(id, { upload, file, fingerprint });
      if (!sending.locks.has(fingerprint)) {
        const unlock = await holdUploadLock(fingerprint);
        if (unlock) sending.locks.set(fingerprint, unlock);
      }
      // Sent meanwhile (by another tab, or the page's early uploader): nothing is sent twice.
      if (sentBefore(ctx.eventUuid, ctx.purpose, fingerprint)) {
        sending.uploads.delete(id);
        release(fingerprint);
        return patch(id, { state: "done", bytesSent: file.size, alreadySent: true });
      }
      const previous = await upload.findPreviousUploads();
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      const item: UploadItem = { ...preparingItem(id, file), state: "uploading" };
      persist(item, fingerprint, "uploading");
      setInterrupted((interrupted) => interrupted.filter((u) => u.fingerprint !== fingerprint));
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
          sending.notKept.set(fingerprint, refusal);
          persist(item, fingerprint, "uploading");
        }
      }
      upload.start();
    },
    [patch, update, remove, release, persist, sending, setInterrupted],
  );

  /**
   * Checks a picked file, shrinks a large photo and starts its upload. The upload client (with the
   * shrinking) loads with the first file, not with the page; on a link that cuts it off, it is fetched
   * again by itself, the card saying it waits for signal meanwhile.
   */
  const prepare = useCallback(
    async (id: string, original: File, words?: SentWords) => {
      const client = await loadUploader(() => patch(id, { state: "paused" }));
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
      const { file, downscaled } = await client.downscalePhoto(typed, contextRef.current.photoMaxEdge);
      patch(id, { size: file.size, downscaled, state: "uploading" });
      await start(id, file, client, words);
    },
    [patch, start],
  );

  useResumeKeptFiles(context, list, sending, start);

  const retry = useCallback(
    (id: string) => {
      const entry = sending.uploads.get(id);
      if (entry) {
        patch(id, { state: "uploading", error: undefined, retryable: undefined });
        entry.upload.start();
        return;
      }
      // Its upload never started (the client did not load): begin again from the file picked.
      const original = sending.picked.get(id);
      if (!original) return;
      patch(id, { state: "preparing", error: undefined, retryable: undefined });
      void prepare(id, original);
    },
    [patch, prepare, sending],
  );

  /**
   * The item already listed for a file picked again, if any: picked twice, sent on from an earlier
   * visit, or sent by the page's early uploader (which shows its own card). One that failed is tried again.
   */
  const listedAlready = useCallback(
    (picked: string) => {
      if (earlyUploads()?.has(picked)) return true;
      for (const [id, file] of sending.picked) {
        if (uploadFingerprint(file) !== picked) continue;
        const item = itemsNow.current.find((i) => i.id === id);
        if (item?.state === "cancelled" || item?.state === "refused") continue;
        if (item?.state === "failed") retry(id);
        return true;
      }
      return false;
    },
    [sending, retry],
  );

  /**
   * Sends files picked or recorded; `words` stand for the form's when it has not caught up with them
   * yet. A file this page lists already is not added twice, and one this browser has sent to this
   * form before is shown as sent, not sent again.
   */
  const add = useCallback(
    async (files: File[], words?: SentWords) => {
      for (const original of files) {
        const picked = uploadFingerprint(original);
        if (listedAlready(picked)) continue;
        const id = newItemId();
        sending.picked.set(id, original);
        append(preparingItem(id, original));
        if (sentBefore(contextRef.current.eventUuid, contextRef.current.purpose, picked)) {
          patch(id, { state: "done", bytesSent: original.size, alreadySent: true });
          continue;
        }
        await prepare(id, original, words);
      }
    },
    [prepare, sending, append, patch, listedAlready],
  );

  usePauseWhileOffline(list.items, patch, sending, retry);

  const cancel = useCallback(
    async (id: string) => {
      const entry = sending.uploads.get(id);
      patch(id, { state: "cancelled" });
      const fingerprint = entry?.fingerprint ?? sending.keptIds.get(id);
      if (fingerprint) release(fingerprint);
      if (!entry) return;
      // Forgotten first: the person cancelled, so a reload before the server has heard (a slow link)
      // must not offer the upload as interrupted.
      forgetUpload(entry.fingerprint);
      await entry.upload.abort(true).catch(() => {});
    },
    [patch, release, sending],
  );

  return { items: list.items, interrupted: list.interrupted, add, retry, cancel, overall: list.overall };
}
