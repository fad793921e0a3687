import type { LucideIcon } from "lucide-react";
import {
  Apple,
  Baby,
  Bird,
  BookHeart,
  BookOpen,
  Briefcase,
  Cake,
  Flower,
  Flower2,
  GraduationCap,
  Hand,
  HandHeart,
  Heart,
  HeartHandshake,
  Medal,
  PartyPopper,
  School,
  Shirt,
  Snowflake,
  Sparkles,
  Star,
  TreePalm,
  Trophy,
  Gem,
} from "lucide-react";
import { renderToStaticMarkup } from "react-dom/server";
import { WEDDING_GUESTBOOK_TYPE, type OccasionType } from "~/domain/occasions";

// Each occasion's picture, drawn from the interface's icon set (Lucide) instead of its emoji (spec §3
// keeps the emoji as data): an emoji shows as an empty box on a device without an emoji font. The
// pages draw them from one cached SVG file of symbols (/icons/occasions.svg, OccasionIcon), so a page
// carries no drawing code and a list of occasions costs one file, drawn within the page: a picture
// in an <img> is an SVG document of its own, which the browser loads, lays out and paints on the
// page's main thread, one per picture (docs/decisions/043-short-tasks-after-the-first-paint.md).
// Each picture is also served alone (/icons/occasions/{type}).

const ICONS: Record<OccasionType | typeof WEDDING_GUESTBOOK_TYPE, LucideIcon> = {
  birthday: Cake,
  other: Sparkles,
  anniversary: HeartHandshake,
  thankyou: HandHeart,
  school: School,
  "teacher-appreciation": Apple,
  graduation: GraduationCap,
  yearbook: BookOpen,
  business: Briefcase,
  recognition: Trophy,
  military: Medal,
  retirement: TreePalm,
  farewell: Hand,
  wedding: Gem,
  mothers: Flower2,
  fathers: Shirt,
  congratulations: PartyPopper,
  valentines: Heart,
  getwell: Flower,
  memorial: Bird,
  babyshower: Baby,
  barmitzvah: Star,
  batmitzvah: Star,
  holiday: Snowflake,
  [WEDDING_GUESTBOOK_TYPE]: BookHeart,
};

/** The brand's blue, as the interface's icons are drawn. */
const INK = "#1f5fd6";

/** An occasion's picture as a standalone SVG document, or null for a type that is not one. */
export function occasionIconSvg(type: string): string | null {
  const Icon = Object.hasOwn(ICONS, type) ? ICONS[type as keyof typeof ICONS] : null;
  if (!Icon) return null;
  return renderToStaticMarkup(<Icon color={INK} size={48} strokeWidth={1.6} />);
}

/**
 * Every occasion's picture as a symbol of one SVG document, its id the occasion's type: a page draws
 * one with `<use href="/icons/occasions.svg#birthday">`. The symbol's view box is the icon's own, so
 * the picture and its strokes scale with the size it is drawn at, as the standalone file does.
 */
export function occasionIconSprite(): string {
  // The same document for every request: drawn once.
  sprite ??= drawSprite();
  return sprite;
}

let sprite: string | undefined;

function drawSprite() {
  const symbols = Object.entries(ICONS).map(([type, Icon]) => (
    <symbol key={type} id={type} viewBox="0 0 24 24">
      <Icon color={INK} size={24} strokeWidth={1.6} />
    </symbol>
  ));
  return renderToStaticMarkup(<svg xmlns="http://www.w3.org/2000/svg">{symbols}</svg>);
}

/** An occasion picture's answer, the sprite's or one picture's: SVG, cached by the browser for a day. */
export function svgResponse(svg: string) {
  return new Response(svg, {
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff" },
  });
}
