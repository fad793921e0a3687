import { useCallback, useEffect, useRef, useState, type CSSProperties } from "react";
import { IntentButton, IntentForm } from "~/components/event/event-intent-form";
import type { ArrangePage } from "~/services/arrange/page-view";
import type { PreviewScene } from "~/services/arrange/preview-panel-view";

type Data = ArrangePage["preview"];
type Style = Data["style"];

// The preview draws the theme the way the renderer does: sizes are given for a 1080-pixel-high
// frame, so they scale with the stage through container units (100cqh = the stage's height).
const atFrame = (pixels: number) => `calc(${pixels} / 1080 * 100cqh)`;
const fontFamily = (style: Style) => `chorus-theme-${style.fontUrl.replace(/[^a-z0-9]/gi, "")}`;

function ThemeFont({ style }: { style: Style }) {
  // As raw text: React would escape the quotes of a text child on the server and the rule would break.
  return (
    <style
      dangerouslySetInnerHTML={{
        __html: `@font-face { font-family: "${fontFamily(style)}"; src: url("${style.fontUrl}") format("truetype"); font-display: swap; }`,
      }}
    />
  );
}

function TextBoxOverlay({ box, style }: { box: { name: string; message: string }; style: Style }) {
  const css: CSSProperties = {
    fontFamily: `"${fontFamily(style)}", Georgia, serif`,
    color: style.fontColor,
    background: style.textBoxColor,
    fontSize: atFrame(style.fontSize * style.textBoxScale * 0.62),
    lineHeight: style.fontLineSpacing,
    padding: `${atFrame(18 * style.textBoxScale)} ${atFrame(28 * style.textBoxScale)}`,
    borderRadius: atFrame(16 * style.textBoxScale),
  };
  return (
    <div className="preview-textbox" style={css}>
      {box.message ? <p className="preview-textbox__message">{box.message}</p> : null}
      {box.name ? <p className="preview-textbox__name">— {box.name}</p> : null}
    </div>
  );
}

/** A clip starts from its trim point when its scene comes up, and stops when the scene leaves. */
function PreviewClip({ scene, active }: { scene: Extract<PreviewScene, { kind: "clip" }>; active: boolean }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (active) {
      video.currentTime = scene.inSeconds;
      void video.play().catch(() => undefined);
    } else video.pause();
  }, [active, scene.inSeconds]);
  return <video ref={ref} className="preview-clip" src={scene.videoUrl} poster={scene.posterUrl ?? undefined} preload="auto" playsInline />;
}

function SceneLayer({ scene, style, active }: { scene: PreviewScene; style: Style; active: boolean }) {
  const duration = { animationDuration: `${scene.seconds}s` };
  return (
    <div className={`preview-scene preview-scene--${scene.kind}${active ? " preview-scene--active" : ""}`} aria-hidden={!active}>
      {scene.kind === "title" ? (
        <div
          className="preview-title"
          style={{
            backgroundImage: `url("${scene.backgroundUrl}")`,
            fontFamily: `"${fontFamily(style)}", Georgia, serif`,
            color: style.fontColor,
          }}
        >
          <p className="preview-title__heading" style={{ fontSize: atFrame(style.fontSize * 2) }}>
            {scene.heading}
          </p>
          <p className="preview-title__subheading" style={{ fontSize: atFrame(style.fontSize) }}>
            {scene.subheading}
          </p>
        </div>
      ) : null}
      {scene.kind === "photo" ? (
        <img
          className={`preview-photo preview-motion--${scene.motion}`}
          // The move closes in on the photo's subject, as in the rendered video.
          style={scene.focus ? { ...duration, transformOrigin: `${scene.focus.x * 100}% ${scene.focus.y * 100}%` } : duration}
          src={scene.imageUrl}
          alt=""
        />
      ) : null}
      {scene.kind === "collage" ? (
        <div className={`preview-collage preview-collage--${scene.imageUrls.length}`}>
          {scene.imageUrls.map((url) => (
            <img key={url} src={url} alt="" />
          ))}
        </div>
      ) : null}
      {scene.kind === "clip" ? <PreviewClip scene={scene} active={active} /> : null}
      {scene.kind !== "title" && scene.textBox ? <TextBoxOverlay box={scene.textBox} style={style} /> : null}
    </div>
  );
}

/** Plays the scenes one after another with crossfades, and the music under them. */
function usePlayer(data: Data) {
  const [index, setIndex] = useState(-1);
  const timer = useRef<number>();
  const music = useRef<HTMLAudioElement>(null);
  const stop = useCallback(() => {
    window.clearTimeout(timer.current);
    music.current?.pause();
    setIndex(-1);
  }, []);
  const startMusic = useCallback(() => {
    if (!music.current || !data.music) return;
    music.current.currentTime = data.music.startSeconds;
    void music.current.play().catch(() => undefined);
  }, [data.music]);
  const play = useCallback(() => {
    if (music.current && data.music) music.current.volume = data.music.volume;
    startMusic();
    setIndex(0);
  }, [data.music, startMusic]);
  useEffect(() => {
    if (index < 0) return;
    const scene = data.scenes[index];
    if (!scene) {
      stop();
      return;
    }
    // The next scene starts as this one's crossfade begins, as in the rendered video.
    const last = index === data.scenes.length - 1;
    const seconds = Math.max(0.2, scene.seconds - (last ? 0 : data.transitionSeconds));
    timer.current = window.setTimeout(() => setIndex((i) => i + 1), seconds * 1000);
    if (music.current && data.music) music.current.volume = data.music.volume * (scene.kind === "clip" ? 0.35 : 1);
    return () => window.clearTimeout(timer.current);
  }, [index, data, stop]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return { index, play, stop, music, startMusic };
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, "0")}`;

/** Watch the arrangement now, before rendering: the renditions in order with the theme drawn on top. */
/** A clip's default trim in the running order, with the way back and where to change it by hand (decision 053). */
function ClipTrimNote({ scene, eventUuid }: { scene: Extract<PreviewScene, { kind: "clip" }>; eventUuid: string }) {
  const note = scene.trimNote!;
  return (
    <div className="preview-order__trim">
      <span>{note.text}</span>
      <IntentForm intent="clip-trim" section="preview">
        <input type="hidden" name="mediaId" value={scene.mediaId} />
        <input type="hidden" name="trim" value={note.offer} />
        <IntentButton intent="clip-trim" row={{ name: "mediaId", value: scene.mediaId }} pending="Saving…" secondary>
          {note.offer === "whole" ? "Use the whole clip" : "Use the suggested trim"}
        </IntentButton>
      </IntentForm>
      <a href={`/e/${eventUuid}#media-${scene.mediaId}`}>Change the trim</a>
    </div>
  );
}

export function PreviewPanel({ data, eventUuid }: { data: Data; eventUuid: string }) {
  const { index, play, stop, music, startMusic } = usePlayer(data);
  const items = data.scenes.filter((s) => s.kind !== "title");
  const playing = index >= 0;
  return (
    <section className="card arrange-section" id="preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview</h2>
      <ThemeFont style={data.style} />
      <div className="preview-stage" data-playing={playing || undefined}>
        {data.scenes.map((scene, i) =>
          // Only the scenes around the current one are mounted: a long Chorus never loads every clip at once.
          playing && Math.abs(i - index) <= 1 ? (
            <div key={scene.key} className="preview-slot">
              <SceneLayer scene={scene} style={data.style} active={i === index} />
            </div>
          ) : null,
        )}
        {!playing ? (
          <div className="preview-idle">
            <SceneLayer scene={data.scenes[0]!} style={data.style} active />
          </div>
        ) : null}
      </div>
      {playing ? (
        <p className="preview-controls">
          <span role="status">{`Scene ${index + 1} of ${data.scenes.length}`}</span>
          <button type="button" className="button button--secondary" onClick={stop}>
            Stop
          </button>
        </p>
      ) : (
        // Under the stage, not on it: the title card's words fill the middle of a small stage.
        <p className="preview-controls">
          <button type="button" className="button preview-play" onClick={play} disabled={items.length === 0} hidden>
            ▶ Play preview ({clock(data.durationSeconds)})
          </button>
        </p>
      )}
      {/* Stopping pauses the music, so it only ends while the preview plays: a track that ends
          before the scenes do plays again from its start point, as in the video. */}
      {data.music ? <audio ref={music} src={data.music.url} preload="none" onEnded={startMusic} /> : null}
      <PreviewScript />
      <noscript>
        <p className="muted">The preview plays with JavaScript on. Here is the running order instead:</p>
      </noscript>
      <ol className="preview-order">
        {data.scenes.map((scene) => (
          <li key={scene.key}>
            {scene.kind === "title" ? `${scene.heading} — ${scene.subheading}` : null}
            {scene.kind !== "title"
              ? `${scene.kind === "clip" ? "Clip" : scene.kind === "photo" ? "Photo" : `Collage of ${scene.imageUrls.length}`}, ${clock(scene.seconds)}`
              : null}
            {scene.kind !== "title" && scene.textBox
              ? ` · ${[scene.textBox.name, scene.textBox.message].filter(Boolean).join(": ")}`
              : null}
            {scene.kind === "clip" && scene.trimNote ? <ClipTrimNote scene={scene} eventUuid={eventUuid} /> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The play button is hidden in the server's HTML and shown once the page's script runs. */
function PreviewScript() {
  useEffect(() => {
    document.querySelectorAll<HTMLButtonElement>(".preview-play").forEach((b) => (b.hidden = false));
  }, []);
  return null;
}
