import { useEffect, useRef, useState } from "react";

const MIME_TYPES = ["video/mp4;codecs=avc1,mp4a", "video/webm;codecs=vp9,opus", "video/webm;codecs=vp8,opus", "video/webm", "video/mp4"];

export interface RecorderProps {
  onRecorded: (file: File) => void;
  maxSeconds: number;
}

/**
 * The camera once "Record a clip" was pressed (MediaRecorder): it asks for the camera at once, shows
 * it, records up to `maxSeconds`, and hands the clip over as a file. `onClosed` goes back to the button.
 */
export default function ClipRecorderSession({ onRecorded, maxSeconds, onClosed }: RecorderProps & { onClosed: (denied: boolean) => void }) {
  const [state, setState] = useState<"opening" | "previewing" | "recording">("opening");
  const [seconds, setSeconds] = useState(0);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);

  useEffect(() => {
    let gone = false;
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "user" }, audio: true })
      .then((camera) => {
        if (gone) return camera.getTracks().forEach((t) => t.stop());
        stream.current = camera;
        if (video.current) video.current.srcObject = camera;
        setState("previewing");
      })
      .catch(() => !gone && onClosed(true));
    return () => {
      gone = true;
      stream.current?.getTracks().forEach((t) => t.stop());
    };
  }, [onClosed]);

  useEffect(() => {
    if (state !== "recording") return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [state]);

  useEffect(() => {
    if (state === "recording" && seconds >= maxSeconds) recorder.current?.stop();
  }, [seconds, maxSeconds, state]);

  function record() {
    if (!stream.current) return;
    const mimeType = MIME_TYPES.find((t) => MediaRecorder.isTypeSupported(t)) ?? "";
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(stream.current, mimeType ? { mimeType } : undefined);
    rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    rec.onstop = () => {
      const type = rec.mimeType || "video/webm";
      const ext = type.includes("mp4") ? "mp4" : "webm";
      onRecorded(new File(chunks, `recording-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.${ext}`, { type }));
      stream.current?.getTracks().forEach((t) => t.stop());
      stream.current = null;
      onClosed(false);
    };
    recorder.current = rec;
    setSeconds(0);
    rec.start(1000);
    setState("recording");
  }

  return (
    <>
      {state === "opening" ? <p className="field-hint">Opening your camera…</p> : null}
      <video ref={video} muted playsInline autoPlay hidden={state === "opening"} className="clip-recorder__preview" />
      {state === "previewing" ? (
        <button type="button" className="button" onClick={record}>
          ● Start recording
        </button>
      ) : null}
      {state === "recording" ? (
        <button type="button" className="button" onClick={() => recorder.current?.stop()}>
          ■ Stop ({seconds}s / {maxSeconds}s)
        </button>
      ) : null}
    </>
  );
}
