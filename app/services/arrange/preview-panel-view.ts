import type { DefaultTrimNote } from "~/domain/default-trim";
import type { TextBox } from "~/render/plan";

/** One scene of the in-browser preview: what to show, for how long, with which words on top. */
export type PreviewScene =
  | { kind: "title"; key: string; seconds: number; heading: string; subheading: string; backgroundUrl: string }
  | {
      kind: "clip";
      key: string;
      mediaId: string;
      seconds: number;
      videoUrl: string;
      posterUrl: string | null;
      inSeconds: number;
      textBox: TextBox | null;
      /** What its default trim left out, and the way back (docs/decisions/053); null when nothing. */
      trimNote: DefaultTrimNote | null;
    }
  | {
      kind: "photo";
      key: string;
      seconds: number;
      imageUrl: string;
      motion: string;
      /** Its subject, which the move closes in on (docs/decisions/053); null when not known. */
      focus: { x: number; y: number } | null;
      textBox: TextBox | null;
    }
  | { kind: "collage"; key: string; seconds: number; imageUrls: string[]; textBox: TextBox | null };
