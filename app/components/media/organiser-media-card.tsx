import type { DragEvent } from "react";
import { IntentButton, IntentForm, useIntentReply } from "~/components/event/event-intent-form";
import { FormMessages } from "~/components/ui/field";
import { FilmIcon, PhotoIcon } from "~/components/ui/icons";
import { adviceForOrganiser } from "~/domain/clip-advice";
import { defaultTrimNote } from "~/domain/default-trim";
import { formatDuration } from "~/domain/media-rules";
import type { MediaView } from "~/services/media/media-view";

const SECTION = "contributions";

export const nameOf = (item: MediaView) => item.contributorName || "Someone";

function StatusBadge({ item }: { item: MediaView }) {
  if (item.status === "ready") return <span className="badge badge--ok">Ready</span>;
  if (item.status === "failed")
    return <span className="badge badge--danger">Failed: {item.failureReason || "we couldn't read this file"}</span>;
  if (item.status === "processing") return <span className="badge">Processing…</span>;
  return <span className="badge">Uploaded</span>;
}

/** The picture box keeps its size before the thumbnail loads (or when there is none yet): no layout shift. */
export function MediaThumb({ item }: { item: MediaView }) {
  const kind =
    item.kind === "video"
      ? `Clip${item.durationSeconds ? ` · ${formatDuration(item.durationSeconds)}` : ""}`
      : item.kind === "photo"
        ? "Photo"
        : "File";
  // Clips' small thumbnails are named after their poster (poster-320.webp), which mediaView does not pick up yet.
  const src = item.thumbnailUrl ?? item.posterUrl;
  return (
    <div className="organiser-media__thumb">
      {src ? (
        <img src={src} alt={`${kind} from ${nameOf(item)}`} loading="lazy" decoding="async" width={320} height={180} draggable={false} />
      ) : (
        <span className="organiser-media__placeholder" aria-hidden="true">
          {item.kind === "video" ? <FilmIcon size={32} strokeWidth={1.5} /> : <PhotoIcon size={32} strokeWidth={1.5} />}
        </span>
      )}
      <span className="organiser-media__kind">{kind}</span>
    </div>
  );
}

/** One small plain form: a hidden intent, the item's id, and one button. */
function ItemButton({
  item,
  intent,
  fields = {},
  pending,
  children,
}: {
  item: MediaView;
  intent: string;
  fields?: Record<string, string>;
  pending: string;
  children: string;
}) {
  return (
    <IntentForm intent={intent} section={SECTION}>
      <input type="hidden" name="mediaId" value={item.id} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <IntentButton intent={intent} row={{ name: "mediaId", value: item.id }} pending={pending} secondary>
        {children}
      </IntentButton>
    </IntentForm>
  );
}

function EditForm({ item }: { item: MediaView }) {
  const reply = useIntentReply("media-edit");
  const mine = reply && !reply.ok && reply.values?.mediaId === item.id ? reply : undefined;
  const errors = mine?.errors ?? {};
  const value = (name: string, fallback: string) => mine?.values?.[name] ?? fallback;
  const idOf = (name: string) => `media-${item.id}-${name}`;
  const trimmable = item.kind === "video" && item.durationSeconds !== null;
  const field = (name: string, label: string, fallback: string, props: Record<string, unknown> = {}) => (
    <div className="field">
      <label htmlFor={idOf(name)}>{label}</label>
      <input
        id={idOf(name)}
        name={name}
        defaultValue={value(name, fallback)}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${idOf(name)}-error` : undefined}
        {...props}
      />
      {errors[name] ? (
        <p className="field-error" id={`${idOf(name)}-error`}>
          {errors[name]}
        </p>
      ) : null}
    </div>
  );
  return (
    <details className="organiser-media__edit" open={!!mine}>
      <summary>Edit</summary>
      <IntentForm intent="media-edit" section={SECTION}>
        <input type="hidden" name="mediaId" value={item.id} />
        {mine?.formError && !mine.errors ? <FormMessages formError={mine.formError} /> : null}
        <div className="field">
          <label htmlFor={idOf("caption")}>Caption</label>
          <textarea
            id={idOf("caption")}
            name="caption"
            rows={2}
            maxLength={2000}
            defaultValue={value("caption", item.caption)}
            aria-invalid={errors.caption ? true : undefined}
          />
          {errors.caption ? <p className="field-error">{errors.caption}</p> : null}
        </div>
        {field("contributorName", "From", item.contributorName, { maxLength: 80 })}
        {trimmable ? (
          <div className="row">
            {field("trimStart", "Start at (s)", String(item.trimStart), { type: "number", min: 0, step: 0.1, inputMode: "decimal" })}
            {field("trimEnd", "End at (s)", item.trimEnd === null ? "" : String(item.trimEnd), {
              type: "number",
              min: 0,
              step: 0.1,
              inputMode: "decimal",
              placeholder: "End",
            })}
          </div>
        ) : null}
        {trimmable ? (
          <p className="field-hint">The clip is {formatDuration(item.durationSeconds!)} long. Leave the end empty to play it to the end.</p>
        ) : null}
        <IntentButton intent="media-edit" row={{ name: "mediaId", value: item.id }} pending="Saving…">
          Save
        </IntentButton>
      </IntentForm>
    </details>
  );
}

/**
 * What processing noticed about a clip (docs/decisions/053): advice, and the trim it gave itself
 * with the way back to the whole clip (or, once changed, to that trim). Plain forms, as every
 * action on the card.
 */
function ClipNotes({ item }: { item: MediaView }) {
  const advice = adviceForOrganiser(item.advice, nameOf(item));
  const trim = item.kind === "video" ? defaultTrimNote(item) : null;
  if (!advice && !trim) return null;
  return (
    <div className="organiser-media__notes">
      {advice ? <p className="organiser-media__advice">{advice}</p> : null}
      {trim ? (
        <div className="organiser-media__trim">
          <p>{trim.text}</p>
          <ItemButton item={item} intent="media-trim" fields={{ trim: trim.offer }} pending="Saving…">
            {trim.offer === "whole" ? "Use the whole clip" : "Use the suggested trim"}
          </ItemButton>
        </div>
      ) : null}
    </div>
  );
}

export interface DragHandlers {
  onDragStart: (event: DragEvent<HTMLLIElement>) => void;
  onDragOver: (event: DragEvent<HTMLLIElement>) => void;
  onDrop: (event: DragEvent<HTMLLIElement>) => void;
  onDragEnd: () => void;
}

/** One contribution on the organiser's grid, with its plain-form actions. */
export function OrganiserMediaCard({
  item,
  index,
  count,
  drag,
  state,
}: {
  item: MediaView;
  index: number;
  count: number;
  drag?: DragHandlers;
  state?: "dragging" | "target";
}) {
  return (
    <li
      className={`organiser-media__item${state ? ` organiser-media__item--${state}` : ""}`}
      id={`media-${item.id}`}
      draggable={!!drag}
      {...drag}
    >
      <MediaThumb item={item} />
      <div className="organiser-media__body">
        <p className="organiser-media__name">{nameOf(item)}</p>
        {item.caption ? <p className="organiser-media__caption">{item.caption}</p> : null}
        <p className="organiser-media__badges">
          <StatusBadge item={item} />
          {item.hidden ? <span className="badge badge--muted">Hidden</span> : null}
        </p>
        <ClipNotes item={item} />
        <div className="organiser-media__actions">
          {index > 0 ? (
            <ItemButton item={item} intent="media-move" fields={{ position: String(index - 1) }} pending="Moving…">
              Move up
            </ItemButton>
          ) : null}
          {index < count - 1 ? (
            <ItemButton item={item} intent="media-move" fields={{ position: String(index + 1) }} pending="Moving…">
              Move down
            </ItemButton>
          ) : null}
          <ItemButton item={item} intent="media-visibility" fields={{ hidden: String(!item.hidden) }} pending="Saving…">
            {item.hidden ? "Show" : "Hide"}
          </ItemButton>
          <ItemButton item={item} intent="media-archive" pending="Archiving…">
            Archive
          </ItemButton>
        </div>
        <EditForm item={item} />
      </div>
    </li>
  );
}

/** An archived item: small, with the way back. */
export function ArchivedMediaRow({ item }: { item: MediaView }) {
  return (
    <li className="organiser-media__archived-item">
      <MediaThumb item={item} />
      <div className="organiser-media__body">
        <p className="organiser-media__name">{nameOf(item)}</p>
        {item.caption ? <p className="organiser-media__caption">{item.caption}</p> : null}
        <ItemButton item={item} intent="media-restore" pending="Restoring…">
          Restore
        </ItemButton>
      </div>
    </li>
  );
}
