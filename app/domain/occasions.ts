// The occasion catalogue (spec §2.3, §2.4, §3 "Occasion entry", §9). Pure data: links that need
// settings are kept symbolic here and resolved by the caller through `resolveOccasionLink`.

/** Catalogue order is the order of the spec's type list; pickers and the guestbook list follow it. */
export const OCCASION_TYPES = [
  "birthday",
  "other",
  "anniversary",
  "thankyou",
  "school",
  "teacher-appreciation",
  "graduation",
  "yearbook",
  "business",
  "recognition",
  "military",
  "retirement",
  "farewell",
  "wedding",
  "mothers",
  "fathers",
  "congratulations",
  // The spec's list names valentines twice (a duplicate row in the source listing). Types are unique
  // keys: a second entry would make lookups ambiguous and show twice in the guestbook list.
  "valentines",
  "getwell",
  "memorial",
  "babyshower",
  "barmitzvah",
  "batmitzvah",
  "holiday",
] as const;

export type OccasionType = (typeof OCCASION_TYPES)[number];

/**
 * Where an occasion's marketing link points. Only in-app pages are plain paths; the Father's Day
 * page lives on the main site and the custom/congratulations start page on the share host, and
 * both hosts come from settings (spec §2.3).
 */
export type OccasionLink =
  | { readonly kind: "marketing"; readonly path: string }
  | { readonly kind: "main-site"; readonly path: string }
  | { readonly kind: "share-start"; readonly occasion: "custom" | "congratulations" };

export interface Occasion {
  readonly type: OccasionType;
  readonly label: string;
  /** The article that goes before the label or phrase: "an anniversary", "a birthday". */
  readonly prefix: "a" | "an";
  /** Sentence fragment for copy: "Ana's {phrase}", "a video for her {phrase}". */
  readonly phrase: string;
  readonly emoji: string;
  readonly isFree: boolean;
  readonly to: OccasionLink;
  readonly homePage: boolean;
  /** Offered when starting a Chorus in the web app. */
  readonly webApp: boolean;
  readonly public: boolean;
}

const marketingPage = (slug: string): OccasionLink => ({ kind: "marketing", path: `/video-maker/${slug}-video` });

// Page reuse (spec §9): several occasions share one marketing page.
const SCHOOL_PAGE = marketingPage("school");
const RECOGNITION_PAGE = marketingPage("recognition");
const BAR_MITZVAH_PAGE = marketingPage("bar-mitzvah");

type Entry = Pick<Occasion, "label" | "prefix" | "phrase" | "emoji" | "to">;

// A Record keyed by type: the compiler rejects a missing occasion and a duplicate key.
const ENTRIES = {
  birthday: { label: "Birthday", prefix: "a", phrase: "birthday", emoji: "🎂", to: marketingPage("birthday") },
  other: { label: "Custom", prefix: "a", phrase: "special occasion", emoji: "✨", to: { kind: "share-start", occasion: "custom" } },
  anniversary: { label: "Anniversary", prefix: "an", phrase: "anniversary", emoji: "💞", to: marketingPage("anniversary") },
  thankyou: { label: "Thank You", prefix: "a", phrase: "thank you", emoji: "🙏", to: marketingPage("thank-you") },
  school: { label: "School", prefix: "a", phrase: "school celebration", emoji: "🏫", to: SCHOOL_PAGE },
  "teacher-appreciation": { label: "Teacher Appreciation", prefix: "a", phrase: "teacher appreciation", emoji: "🍎", to: SCHOOL_PAGE },
  graduation: { label: "Graduation", prefix: "a", phrase: "graduation", emoji: "🎓", to: marketingPage("graduation") },
  yearbook: { label: "Yearbook", prefix: "a", phrase: "yearbook", emoji: "📚", to: SCHOOL_PAGE },
  business: { label: "Business", prefix: "a", phrase: "team celebration", emoji: "💼", to: marketingPage("business") },
  recognition: { label: "Recognition", prefix: "a", phrase: "recognition", emoji: "🏆", to: RECOGNITION_PAGE },
  military: { label: "Military", prefix: "a", phrase: "military tribute", emoji: "🎖️", to: RECOGNITION_PAGE },
  retirement: { label: "Retirement", prefix: "a", phrase: "retirement", emoji: "🏖️", to: marketingPage("retirement") },
  farewell: { label: "Farewell", prefix: "a", phrase: "farewell", emoji: "👋", to: marketingPage("farewell") },
  wedding: { label: "Wedding", prefix: "a", phrase: "wedding", emoji: "💍", to: marketingPage("wedding") },
  mothers: { label: "Mother's Day", prefix: "a", phrase: "Mother's Day", emoji: "💐", to: marketingPage("mothers-day") },
  fathers: {
    label: "Father's Day",
    prefix: "a",
    phrase: "Father's Day",
    emoji: "👔",
    to: { kind: "main-site", path: "/video-maker/fathers-day-video" },
  },
  congratulations: {
    label: "Congrats",
    prefix: "a",
    phrase: "congratulations",
    emoji: "🎉",
    to: { kind: "share-start", occasion: "congratulations" },
  },
  valentines: { label: "Valentine's Day", prefix: "a", phrase: "Valentine's Day", emoji: "❤️", to: marketingPage("valentines-day") },
  getwell: { label: "Get Well", prefix: "a", phrase: "get well wishes", emoji: "🌻", to: marketingPage("get-well") },
  memorial: { label: "Memorial", prefix: "a", phrase: "memorial", emoji: "🕊️", to: marketingPage("memorial") },
  babyshower: { label: "Baby Shower", prefix: "a", phrase: "baby shower", emoji: "🍼", to: marketingPage("baby-shower") },
  barmitzvah: { label: "Bar Mitzvah", prefix: "a", phrase: "Bar Mitzvah", emoji: "✡️", to: BAR_MITZVAH_PAGE },
  batmitzvah: { label: "Bat Mitzvah", prefix: "a", phrase: "Bat Mitzvah", emoji: "✡️", to: BAR_MITZVAH_PAGE },
  holiday: { label: "Holiday", prefix: "a", phrase: "holiday", emoji: "❄️", to: marketingPage("holiday") },
} as const satisfies Record<OccasionType, Entry>;

// Business constants (spec §9), kept as the exceptions the spec names so each rule reads as written.
const FREE: ReadonlySet<OccasionType> = new Set(["getwell"]);
const NOT_IN_WEB_APP: ReadonlySet<OccasionType> = new Set(["school", "business"]);
const NOT_ON_HOME_PAGE: ReadonlySet<OccasionType> = new Set([
  "other",
  "teacher-appreciation",
  "yearbook",
  "business",
  "military",
  "congratulations",
  "holiday",
]);

export const OCCASIONS: readonly Occasion[] = OCCASION_TYPES.map((type) => ({
  type,
  ...ENTRIES[type],
  isFree: FREE.has(type),
  homePage: !NOT_ON_HOME_PAGE.has(type),
  webApp: !NOT_IN_WEB_APP.has(type),
  public: true, // every occasion is public (spec §9)
}));

const BY_TYPE = new Map<string, Occasion>(OCCASIONS.map((occasion) => [occasion.type, occasion]));

export const isOccasionType = (value: unknown): value is OccasionType => typeof value === "string" && BY_TYPE.has(value);

export const findOccasion = (type: string): Occasion | undefined => BY_TYPE.get(type);

export const homePageOccasions = (): Occasion[] => OCCASIONS.filter((occasion) => occasion.homePage);

/** The occasions offered when starting a Chorus. */
export const webAppOccasions = (): Occasion[] => OCCASIONS.filter((occasion) => occasion.webApp);

/** The in-app marketing pages, each once (several occasions share a page), in catalogue order. */
export const marketingPaths = (): string[] => [
  ...new Set(OCCASIONS.flatMap((occasion) => (occasion.to.kind === "marketing" ? [occasion.to.path] : []))),
];

export interface OccasionLinkSettings {
  /** The main marketing site, e.g. "https://www.example.com"; a trailing slash is ignored. */
  mainSiteUrl: string;
  /** The public share host, without scheme, e.g. "share.example.com". */
  shareHost: string;
}

export function resolveOccasionLink(link: OccasionLink, settings: OccasionLinkSettings): string {
  switch (link.kind) {
    case "marketing":
      return link.path;
    case "main-site":
      return `${settings.mainSiteUrl.replace(/\/+$/, "")}${link.path}`;
    case "share-start":
      return `https://${settings.shareHost}/start?occasion=${link.occasion}`;
  }
}

// Guestbooks (spec §2.4).

export const WEDDING_GUESTBOOK_TYPE = "wedding-guestbook";

export type GuestbookType = OccasionType | typeof WEDDING_GUESTBOOK_TYPE;

export interface GuestbookOption {
  type: GuestbookType;
  label: string;
}

const GUESTBOOK_SUFFIX = " Guestbook";

// §2.4 gives these two a label of their own instead of the suffix: "Custom Guestbook" would not say
// what it is for, and "Congrats" is a short label that reads poorly as a guestbook name.
// Wedding keeps its plain label: the dedicated "Wedding Guestbook" entry follows it, and the
// suffix would show the same words twice in one list.
const CUSTOM_GUESTBOOK_LABELS: Partial<Record<OccasionType, string>> = {
  other: "Custom Event Guestbook",
  congratulations: "Congratulations Guestbook",
  wedding: "Wedding",
};

const WEDDING_GUESTBOOK: GuestbookOption = { type: WEDDING_GUESTBOOK_TYPE, label: "Wedding Guestbook" };

/** Occasions a guestbook can be made for: public and offered in the web app, in catalogue order. */
export const guestbookOccasions = (): GuestbookOption[] =>
  OCCASIONS.filter((occasion) => occasion.public && occasion.webApp).flatMap((occasion) => {
    const option = {
      type: occasion.type,
      label: CUSTOM_GUESTBOOK_LABELS[occasion.type] ?? occasion.label + GUESTBOOK_SUFFIX,
    };
    return occasion.type === "wedding" ? [option, WEDDING_GUESTBOOK] : [option];
  });
