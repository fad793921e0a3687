import { useState, type CSSProperties } from "react";
import { IntentButton, IntentForm, useIntentReply } from "~/components/event/event-intent-form";
import { Field, FormMessages, SelectField } from "~/components/ui/field";
import type { ArrangePage } from "~/services/arrange/page-view";

type Panel = ArrangePage["theme"];
type Card = Panel["themes"][number];
type Font = Panel["fonts"][number];

/** The theme fonts, declared for this page only, so each theme is shown in its own lettering. */
const fontFaces = (fonts: Font[]) =>
  fonts
    .map(
      (f) =>
        `@font-face{font-family:"${f.cssFamily}";src:url("${f.url}") format("truetype");font-weight:${f.weight};font-style:${f.style};font-display:swap}`,
    )
    .join("\n");

const lettering = (font: Font): CSSProperties => ({
  fontFamily: `"${font.cssFamily}", var(--font-display)`,
  fontWeight: font.weight,
  fontStyle: font.style,
});

/** Text on its box, as the captions in the video will look. */
function Sample({ font, fontColor, textBoxColor, children }: { font: Font; fontColor: string; textBoxColor: string; children: string }) {
  return (
    <span className="theme-sample" style={{ ...lettering(font), color: fontColor, background: textBoxColor }}>
      {children}
    </span>
  );
}

function Swatches({ theme }: { theme: Card }) {
  return (
    <span className="theme-swatches">
      <span className="theme-swatch" style={{ background: theme.fontColor }} aria-hidden="true" />
      <span className="theme-swatch" style={{ background: theme.textBoxColor }} aria-hidden="true" />
      <span className="visually-hidden">
        Text colour {theme.fontColor} on {theme.textBoxColor}
      </span>
    </span>
  );
}

function ThemeCardOption({ theme, chosen }: { theme: Card; chosen: boolean }) {
  return (
    <li>
      <label className="theme-card">
        <input className="theme-card__radio" type="radio" name="themeId" value={theme.id} defaultChecked={chosen} />
        <span className="theme-card__preview">
          {theme.previewUrl ? <img src={theme.previewUrl} alt="" width={480} height={270} loading="lazy" decoding="async" /> : null}
          <Sample font={theme.font} fontColor={theme.fontColor} textBoxColor={theme.textBoxColor}>
            {theme.name}
          </Sample>
        </span>
        <span className="theme-card__body">
          <span className="theme-card__name">{theme.name}</span>
          <span className="theme-card__meta">
            {theme.font.name}
            <Swatches theme={theme} />
          </span>
          {theme.description ? <span className="theme-card__description">{theme.description}</span> : null}
          <span className="theme-card__badges">
            {chosen ? <span className="badge badge--ok">In use</span> : null}
            {theme.isCollage ? <span className="badge">Collage</span> : null}
            {theme.isPremium ? <span className="badge badge--premium">Premium</span> : null}
            {theme.isOwn ? <span className="badge badge--muted">Yours</span> : null}
          </span>
        </span>
      </label>
    </li>
  );
}

/** The organiser's own theme: name, colours, font and text box, with a live sample when JavaScript runs. */
function ThemeEditor({ theme, panel }: { theme: Card; panel: Panel }) {
  const reply = useIntentReply("theme-save");
  const failed = reply && !reply.ok && reply.values?.themeId === theme.id ? reply : undefined;
  const values = failed?.values;
  const errors = failed?.errors ?? {};
  const [look, setLook] = useState({
    fontColor: values?.fontColor ?? panel.editor.fontColor,
    textBoxColor: values?.textBoxColor ?? panel.editor.textBoxColor,
    textBoxOpacity: values?.textBoxOpacity ?? String(panel.editor.textBoxOpacity),
    fontUrl: values?.fontUrl ?? theme.font.url,
  });
  const font = panel.fonts.find((f) => f.url === look.fontUrl) ?? theme.font;
  const alpha = Math.round((Math.min(100, Math.max(0, Number(look.textBoxOpacity) || 0)) / 100) * 255);
  const boxColour = `${look.textBoxColor}${alpha.toString(16).padStart(2, "0")}`;
  return (
    <div className="theme-editor">
      <h3>Your theme: {theme.name}</h3>
      <IntentForm intent="theme-save" section="theme">
        <input type="hidden" name="themeId" value={theme.id} />
        {failed?.formError ? <FormMessages formError={failed.formError} /> : null}
        <p className="theme-editor__sample" aria-hidden="true">
          <Sample font={font} fontColor={look.fontColor} textBoxColor={boxColour}>
            Happy memories, from all of us
          </Sample>
        </p>
        <Field id="theme-name" name="name" label="Name" defaultValue={values?.name ?? theme.name} maxLength={60} error={errors.name} />
        <div className="row">
          <Field
            id="theme-fontColor"
            name="fontColor"
            label="Text colour"
            type="color"
            defaultValue={look.fontColor}
            onChange={(e) => setLook({ ...look, fontColor: e.target.value })}
            error={errors.fontColor}
          />
          <Field
            id="theme-textBoxColor"
            name="textBoxColor"
            label="Text box colour"
            type="color"
            defaultValue={look.textBoxColor}
            onChange={(e) => setLook({ ...look, textBoxColor: e.target.value })}
            error={errors.textBoxColor}
          />
          <Field
            id="theme-textBoxOpacity"
            name="textBoxOpacity"
            label="Box opacity (%)"
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            step={5}
            defaultValue={look.textBoxOpacity}
            onChange={(e) => setLook({ ...look, textBoxOpacity: e.target.value })}
            error={errors.textBoxOpacity}
          />
        </div>
        <SelectField
          id="theme-fontUrl"
          name="fontUrl"
          label="Font"
          options={panel.fonts.map((f) => ({ value: f.url, label: f.name }))}
          defaultValue={look.fontUrl}
          onChange={(e) => setLook({ ...look, fontUrl: e.target.value })}
          error={errors.fontUrl}
        />
        <div className="row">
          <Field
            id="theme-fontSize"
            name="fontSize"
            label="Text size (px)"
            type="number"
            inputMode="numeric"
            min={24}
            max={120}
            defaultValue={values?.fontSize ?? String(theme.fontSize)}
            hint="On a full-HD frame: 44 to 56 suits most."
            error={errors.fontSize}
          />
          <Field
            id="theme-textBoxScale"
            name="textBoxScale"
            label="Text box size"
            type="number"
            inputMode="decimal"
            min={0.5}
            max={2}
            step={0.05}
            defaultValue={values?.textBoxScale ?? String(theme.textBoxScale)}
            hint="1 is the usual size."
            error={errors.textBoxScale}
          />
        </div>
        <IntentButton intent="theme-save" pending="Saving…">
          Save my theme
        </IntentButton>
      </IntentForm>
      <IntentForm intent="theme-delete" section="theme" className="theme-editor__delete">
        <input type="hidden" name="themeId" value={theme.id} />
        <IntentButton intent="theme-delete" pending="Deleting…" secondary>
          Delete this theme
        </IntentButton>
      </IntentForm>
    </div>
  );
}

function CustomiseOffer({ theme }: { theme: Card }) {
  return (
    <IntentForm intent="theme-customise" section="theme" className="theme-customise">
      <input type="hidden" name="themeId" value={theme.id} />
      <p>Want other colours or another font? Make your own copy of {theme.name} and change it.</p>
      <IntentButton intent="theme-customise" pending="Making your copy…" secondary>
        Customise {theme.name}
      </IntentButton>
    </IntentForm>
  );
}

function DeletedThemes({ deleted }: { deleted: Panel["deleted"] }) {
  return (
    <details className="theme-deleted">
      <summary>Deleted themes ({deleted.length})</summary>
      <ul>
        {deleted.map((theme) => (
          <li key={theme.id}>
            <span>{theme.name}</span>
            <IntentForm intent="theme-restore" section="theme">
              <input type="hidden" name="themeId" value={theme.id} />
              <IntentButton intent="theme-restore" row={{ name: "themeId", value: theme.id }} pending="Restoring…" secondary>
                Restore
              </IntentButton>
            </IntentForm>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The look of the video: pick a theme (a plain radio form), then make it your own if you like. */
export function ThemePanel({ data }: { data: Panel; eventUuid: string }) {
  const reply = useIntentReply("theme-choose", "theme-customise", "theme-delete", "theme-restore");
  const chosen = data.themes.find((t) => t.id === data.chosenId);
  return (
    <section className="card arrange-section theme-panel" id="theme" aria-labelledby="theme-heading">
      {/* Our own constant font list, not user input: React would escape its quotes as text. */}
      <style dangerouslySetInnerHTML={{ __html: fontFaces(data.fonts) }} />
      <h2 id="theme-heading">Theme</h2>
      <p className="field-hint">The intro, the outro and the captions on every photo and clip.</p>
      {reply && !reply.ok ? <FormMessages formError={reply.formError} /> : null}
      <IntentForm intent="theme-choose" section="theme">
        <fieldset className="theme-picker">
          <legend className="visually-hidden">Choose a theme</legend>
          <ul className="theme-grid">
            {data.themes.map((theme) => (
              <ThemeCardOption key={theme.id} theme={theme} chosen={theme.id === data.chosenId} />
            ))}
          </ul>
        </fieldset>
        <div className="theme-picker__actions">
          <IntentButton intent="theme-choose" pending="Saving…">
            Use this theme
          </IntentButton>
        </div>
      </IntentForm>
      {chosen?.isOwn ? <ThemeEditor key={chosen.id} theme={chosen} panel={data} /> : chosen ? <CustomiseOffer theme={chosen} /> : null}
      {data.deleted.length ? <DeletedThemes deleted={data.deleted} /> : null}
    </section>
  );
}
