import { useEffect, useState, type ChangeEvent } from "react";
import { adviceForContributor } from "~/domain/clip-advice";
import { api } from "~/lib/browser/api-client";
import { uploadToken } from "~/lib/browser/upload-store";

/**
 * On a contributor's card once their clip is ready: what may disappoint about it, in one plain
 * sentence, and Record again, which opens the camera and sends the new clip as any other
 * (docs/decisions/053). The clip is kept either way: nothing is refused for it.
 */
export function ClipAdviceNote({ mediaUuid, onRecorded }: { mediaUuid: string; onRecorded: (files: File[]) => void }) {
  const [sentence, setSentence] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    // The browser that sent it shows who it is with the token it kept; the answer is theirs alone.
    api
      .get<{ data: { kind: string | null; advice: string[] } }>(`/uploads/${mediaUuid}`, {
        headers: { "X-Upload-Token": uploadToken() },
        signal: controller.signal,
      })
      .then(({ data }) => setSentence(data.kind === "video" ? adviceForContributor(data.advice) : null))
      .catch(() => undefined);
    return () => controller.abort();
  }, [mediaUuid]);
  if (!sentence) return null;
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.currentTarget.files ?? []);
    event.currentTarget.value = "";
    if (files.length) onRecorded(files);
  };
  return (
    <div className="clip-advice" role="status">
      <p>{sentence}</p>
      <label className="button button--secondary">
        Record again
        <input type="file" accept="video/*" capture="user" className="visually-hidden" onChange={onChange} />
      </label>
    </div>
  );
}
