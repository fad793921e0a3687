import { useEffect, useRef, useState } from "react";
import { VideoIcon } from "~/components/ui/icons";

const MIME_TYPES = ["video/mp4;codecs=avc1,mp4a", "video/webm;codecs=vp9,opus", "video/webm;codecs=vp8,opus", "video/webm", "video/mp4"];

/** Records a clip with the phone's camera (MediaRecorder), as an alternative to picking a file. */
export function ClipRecorder({ onRecorded, maxSeconds }: { onRecorded: (file: File) => void; maxSeconds: number }) {
  const [state, setState] = useState<"idle" | "previewing" | "recording" | "unsupported" | "denied">("idle");
  const [seconds, setSeconds] = useState(0);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);

  useEffect(() => {
    if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) setState("unsupported");
    return () => stream.current?.getTracks().forEach((t) => t.stop());
  }, []);

  useEffect(() => {
    if (state !== "recording") return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [state]);

  useEffect(() => {
    if (state === "recording" && seconds >= maxSeconds) recorder.current?.stop();
  }, [seconds, maxSeconds, state]);

  async function openCamera() {
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user" }, audio: true });
      if (video.current) video.current.srcObject = stream.current;
      setState("previewing");
    } catch {
      setState("denied");
    }
  }

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
      setState("idle");
    };
    recorder.current = rec;
    setSeconds(0);
    rec.start(1000);
    setState("recording");
  }

  if (state === "unsupported") return null;
  return (
    <div className="clip-recorder">
      {state === "idle" ? (
        <button type="button" className="button button--secondary" onClick={openCamera}>
          <VideoIcon /> Record a clip
        </button>
      ) : null}
      {state === "denied" ? (
        <p className="field-error">We could not open your camera. Allow camera access, or pick a video instead.</p>
      ) : null}
      <video
        ref={video}
        muted
        playsInline
        autoPlay
        hidden={state !== "previewing" && state !== "recording"}
        className="clip-recorder__preview"
      />
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
    </div>
  );
}
