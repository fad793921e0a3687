import { Form, useLocation } from "@remix-run/react";
import { useState } from "react";
import { IntentButton, IntentForm, useIntentReply } from "~/components/event/event-intent-form";
import { Field } from "~/components/ui/field";
import { MOOD_LABELS } from "~/domain/built-in-tracks";
import { formatTrackTime } from "~/domain/track-rules";
import type { ArrangePage } from "~/services/arrange/page-view";
import { TrackWaveform } from "./track-waveform";
import { useLiveTracks } from "./use-live-tracks";

type MusicData = ArrangePage["music"];
type PanelTrack = MusicData["tracks"][number];

/**
 * The arrange page's music: listen to the tracks, choose one (or none), set where it starts, how it
 * fades and how loud it plays, and upload music of one's own. Plain forms; live status with JS.
 */
export function MusicPanel({ data }: { data: MusicData; eventUuid: string }) {
  const tracks = useLiveTracks(data.tracks);
  const choice = data.choice;
  const chosen = tracks.find((t) => t.id === choice?.trackId) ?? null;
  // With JavaScript the waveform's start mark follows the start field as it is typed.
  const [startSeconds, setStartSeconds] = useState<number | null>(null);
  const shownStart = startSeconds ?? choice?.startSeconds ?? 0;
  return (
    <section id="music" className="card arrange-section arrange-music" aria-labelledby="music-title">
      <h2 id="music-title">Music</h2>
      <p className="field-hint">
        {chosen ? (
          <>
            Playing under the video: <strong>{chosen.title}</strong>, from {formatTrackTime(choice?.startSeconds)}.
          </>
        ) : (
          "Choose a track to play under the video, or upload your own."
        )}
      </p>
      <ul className="arrange-music__tracks">
        {tracks.map((track) => (
          <TrackItem
            key={track.id}
            track={track}
            chosen={track.id === chosen?.id}
            startSeconds={track.id === chosen?.id ? shownStart : null}
          />
        ))}
      </ul>
      {chosen ? (
        <IntentForm intent="music-choose" section="music" className="arrange-music__none">
          <input type="hidden" name="trackId" value="none" />
          <IntentButton intent="music-choose" row={{ name: "trackId", value: "none" }} pending="Saving…" secondary>
            Use no music
          </IntentButton>
        </IntentForm>
      ) : null}
      {chosen?.status === "ready" && choice ? (
        <MusicSettingsForm
          choice={choice}
          track={chosen}
          maxFadeOutSeconds={data.limits.maxFadeOutSeconds}
          onStartInput={setStartSeconds}
        />
      ) : null}
      <TrackUploadForm limits={data.limits} ownCount={data.ownCount} />
    </section>
  );
}

function TrackStatus({ track }: { track: PanelTrack }) {
  if (track.status === "failed")
    return <span className="badge badge--danger">Could not be used: {track.failureReason || "we couldn't read this file"}</span>;
  if (track.status === "processing") return <span className="badge">Preparing…</span>;
  if (track.status === "uploaded") return <span className="badge">Waiting to be prepared</span>;
  return null;
}

function TrackItem({ track, chosen, startSeconds }: { track: PanelTrack; chosen: boolean; startSeconds: number | null }) {
  const ready = track.status === "ready";
  const details = [
    track.artist || null,
    track.mood ? MOOD_LABELS[track.mood] : track.builtIn ? null : "Your upload",
    ready ? formatTrackTime(track.durationSeconds) : null,
  ];
  return (
    <li className={chosen ? "arrange-music__track arrange-music__track--chosen" : "arrange-music__track"}>
      <div className="arrange-music__head">
        <div className="arrange-music__title">
          <strong>{track.title}</strong>
          <span className="field-hint">{details.filter(Boolean).join(" · ")}</span>
        </div>
        {chosen ? <span className="badge badge--ok">Chosen</span> : null}
        {track.premium ? <span className="badge badge--premium">Premium</span> : null}
        <TrackStatus track={track} />
      </div>
      {ready ? (
        <>
          <TrackWaveform title={track.title} peaks={track.waveform} durationSeconds={track.durationSeconds} startSeconds={startSeconds} />
          <audio className="arrange-music__player" controls preload="none" src={track.audioUrl}>
            <a href={track.audioUrl}>Listen to {track.title}</a>
          </audio>
        </>
      ) : null}
      {track.archived ? <p className="field-hint">Deleted from your music: it stays in this video until you choose another.</p> : null}
      <div className="arrange-music__actions">
        {ready && !chosen && !track.archived ? (
          <IntentForm intent="music-choose" section="music">
            <input type="hidden" name="trackId" value={track.id} />
            <IntentButton intent="music-choose" row={{ name: "trackId", value: track.id }} pending="Choosing…">
              Use this track
            </IntentButton>
          </IntentForm>
        ) : null}
        {track.own && !track.archived ? (
          <IntentForm intent="music-delete" section="music">
            <input type="hidden" name="trackId" value={track.id} />
            <IntentButton intent="music-delete" row={{ name: "trackId", value: track.id }} pending="Deleting…" secondary>
              Delete
            </IntentButton>
          </IntentForm>
        ) : null}
      </div>
    </li>
  );
}

function MusicSettingsForm({
  choice,
  track,
  maxFadeOutSeconds,
  onStartInput,
}: {
  choice: NonNullable<MusicData["choice"]>;
  track: PanelTrack;
  maxFadeOutSeconds: number;
  onStartInput: (seconds: number | null) => void;
}) {
  const reply = useIntentReply("music-settings");
  const errors = reply?.errors ?? {};
  const duration = track.durationSeconds ?? 0;
  return (
    <IntentForm intent="music-settings" section="music" className="arrange-music__settings">
      <h3>How it plays</h3>
      <div className="row">
        <Field
          name="startSeconds"
          label="Start at (seconds)"
          type="number"
          inputMode="decimal"
          min={0}
          max={Math.max(0, Math.floor(duration * 10) / 10 - 0.1)}
          step={0.1}
          defaultValue={choice.startSeconds}
          hint={`The track is ${formatTrackTime(duration)} long.`}
          error={errors.startSeconds}
          onInput={(e) => {
            const value = Number(e.currentTarget.value);
            onStartInput(e.currentTarget.value !== "" && Number.isFinite(value) ? value : null);
          }}
        />
        <Field
          name="fadeOutSeconds"
          label="Fade out (seconds)"
          type="number"
          inputMode="decimal"
          min={0}
          max={maxFadeOutSeconds}
          step={0.5}
          defaultValue={choice.fadeOutSeconds}
          hint={`0 to ${maxFadeOutSeconds}, at the end of the video.`}
          error={errors.fadeOutSeconds}
        />
        <Field
          name="volume"
          label="Volume (%)"
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          step={1}
          defaultValue={choice.volumePercent}
          hint="Under photos; it dips under clips with sound."
          error={errors.volume}
        />
      </div>
      <IntentButton intent="music-settings" pending="Saving…">
        Save music settings
      </IntentButton>
    </IntentForm>
  );
}

function TrackUploadForm({ limits, ownCount }: { limits: MusicData["limits"]; ownCount: number }) {
  const { pathname, search } = useLocation();
  const reply = useIntentReply("music-upload");
  const full = ownCount >= limits.maxOwnTracks;
  return (
    <Form method="post" encType="multipart/form-data" action={`${pathname}${search}#music`} className="arrange-music__upload" noValidate>
      <h3>Upload your own music</h3>
      <input type="hidden" name="intent" value="music-upload" />
      {full ? (
        <p className="form-note">You have {limits.maxOwnTracks} tracks of your own. Delete one to upload another.</p>
      ) : (
        <>
          <Field
            name="file"
            id="music-file"
            label="Music file"
            type="file"
            accept={limits.accept}
            required
            hint={`${limits.acceptedNames}; up to ${limits.maxSize} and ${limits.maxDuration}. Only upload music you have the right to use.`}
            error={reply?.errors?.file}
          />
          <Field name="title" id="music-title-field" label="Title (optional)" maxLength={120} error={reply?.errors?.title} />
          <IntentButton intent="music-upload" pending="Uploading…">
            Upload track
          </IntentButton>
        </>
      )}
    </Form>
  );
}
