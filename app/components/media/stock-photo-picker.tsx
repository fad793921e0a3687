import { Form, Link, useLocation } from "@remix-run/react";
import { IntentButton, IntentForm, useIntentReply } from "~/components/event/event-intent-form";
import { FormMessages } from "~/components/ui/field";
import { AddPhotoIcon, DisclosureIcon } from "~/components/ui/icons";
import type { StockPicker, StockPickerPhoto } from "~/services/media/stock-photo-pick-view";

const SECTION = "stock";

/** "Photo by X on Unsplash", each name a link back as Unsplash asks; our own pictures by their title. */
function Attribution({ photo, picker }: { photo: StockPickerPhoto; picker: StockPicker }) {
  if (picker.provider !== "unsplash") return <p className="field-hint">{photo.attribution}</p>;
  return (
    <p className="field-hint">
      Photo by {photo.authorUrl ? <a href={photo.authorUrl}>{photo.authorName}</a> : photo.authorName} on{" "}
      {picker.providerUrl ? <a href={picker.providerUrl}>Unsplash</a> : "Unsplash"}
    </p>
  );
}

function StockResult({ photo, picker }: { photo: StockPickerPhoto; picker: StockPicker }) {
  const reply = useIntentReply("stock-add");
  const failed = reply && !reply.ok && reply.values?.photoId === photo.id ? reply : undefined;
  const captionId = `stock-${photo.id}-caption`;
  return (
    <li className="organiser-media__item">
      <div className="organiser-media__thumb">
        <img src={photo.thumbUrl} alt={photo.description || photo.attribution} loading="lazy" decoding="async" width={320} height={180} />
      </div>
      <div className="organiser-media__body">
        <Attribution photo={photo} picker={picker} />
        <IntentForm intent="stock-add" section={SECTION}>
          <input type="hidden" name="photoId" value={photo.id} />
          <div className="field">
            <label htmlFor={captionId} className="visually-hidden">
              Caption for {photo.description || "this photo"} (optional)
            </label>
            <input
              id={captionId}
              name="caption"
              maxLength={2000}
              placeholder="Caption"
              defaultValue={failed?.values?.caption ?? ""}
              aria-invalid={failed?.errors?.caption ? true : undefined}
            />
            {failed?.errors?.caption ? <p className="field-error">{failed.errors.caption}</p> : null}
          </div>
          <IntentButton intent="stock-add" row={{ name: "photoId", value: photo.id }} pending="Adding…">
            Add to the video
          </IntentButton>
        </IntentForm>
      </div>
    </li>
  );
}

function Pages({ picker }: { picker: StockPicker }) {
  if (picker.totalPages <= 1) return null;
  const to = (page: number) => `?${new URLSearchParams({ stock: picker.query, stockPage: String(page) })}#${SECTION}`;
  return (
    <nav className="row" aria-label="Stock photo pages">
      {picker.page > 1 ? (
        <Link className="button button--secondary" to={to(picker.page - 1)}>
          Previous
        </Link>
      ) : null}
      <span className="field-hint">
        Page {picker.page} of {picker.totalPages}
      </span>
      {picker.page < picker.totalPages ? (
        <Link className="button button--secondary" to={to(picker.page + 1)}>
          Next
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * Stock photos for the organiser to add beside the contributions: a plain GET search
 * (?stock=…&stockPage=…, answered by the page's loader) and one "Add to the video" form per
 * photo, so it all works without JavaScript.
 */
export function StockPhotoPicker({ picker }: { picker: StockPicker | null }) {
  const { pathname } = useLocation();
  const reply = useIntentReply("stock-add");
  // A refusal about one photo's caption is said in its own form; everything else here.
  const said = reply && !(reply.values?.photoId && reply.errors?.caption) ? reply : undefined;
  return (
    <details className="organiser-media" id={SECTION} open={!!picker || !!reply}>
      <summary className="button button--secondary disclosure-button">
        <AddPhotoIcon />
        Add a stock photo
        <DisclosureIcon className="disclosure-button__chevron" />
      </summary>
      <Form method="get" action={`${pathname}#${SECTION}`} className="row" role="search">
        <div className="field">
          <label htmlFor="stock-search">Search stock photos</label>
          <input
            id="stock-search"
            type="search"
            name="stock"
            maxLength={100}
            defaultValue={picker?.query ?? ""}
            placeholder="balloons, confetti, stars…"
          />
        </div>
        <div>
          <button className="button" type="submit">
            Search
          </button>
        </div>
      </Form>
      <FormMessages formError={said?.formError ?? picker?.error ?? undefined} message={said?.message} />
      {picker && !picker.error ? (
        picker.results.length === 0 ? (
          <p className="empty-note">No stock photos match “{picker.query}”. Try another word.</p>
        ) : (
          <>
            <p className="field-hint">
              {picker.total} {picker.total === 1 ? "photo" : "photos"}
              {picker.query ? ` for “${picker.query}”` : ""}.
            </p>
            {/* Smaller cards than the contributions': two across on a phone. */}
            <ul className="organiser-media__grid" style={{ gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))" }}>
              {picker.results.map((photo) => (
                <StockResult key={photo.id} photo={photo} picker={picker} />
              ))}
            </ul>
            <Pages picker={picker} />
          </>
        )
      ) : null}
    </details>
  );
}
