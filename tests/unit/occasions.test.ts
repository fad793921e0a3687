import { describe, expect, test } from "vitest";
import {
  OCCASIONS,
  OCCASION_TYPES,
  WEDDING_GUESTBOOK_TYPE,
  findOccasion,
  guestbookOccasions,
  homePageOccasions,
  isOccasionType,
  marketingPaths,
  resolveOccasionLink,
  webAppOccasions,
} from "~/domain/occasions";

const typesOf = (list: readonly { type: string }[]) => list.map((entry) => entry.type);

// The spec's list (§3) with its duplicate valentines row removed, in the spec's order.
const SPEC_LABELS = [
  ["birthday", "Birthday"],
  ["other", "Custom"],
  ["anniversary", "Anniversary"],
  ["thankyou", "Thank You"],
  ["school", "School"],
  ["teacher-appreciation", "Teacher Appreciation"],
  ["graduation", "Graduation"],
  ["yearbook", "Yearbook"],
  ["business", "Business"],
  ["recognition", "Recognition"],
  ["military", "Military"],
  ["retirement", "Retirement"],
  ["farewell", "Farewell"],
  ["wedding", "Wedding"],
  ["mothers", "Mother's Day"],
  ["fathers", "Father's Day"],
  ["congratulations", "Congrats"],
  ["valentines", "Valentine's Day"],
  ["getwell", "Get Well"],
  ["memorial", "Memorial"],
  ["babyshower", "Baby Shower"],
  ["barmitzvah", "Bar Mitzvah"],
  ["batmitzvah", "Bat Mitzvah"],
  ["holiday", "Holiday"],
] as const;

// The marketing link table of §2.3, one row per type.
const MARKETING_LINKS: Record<string, string> = {
  birthday: "/video-maker/birthday-video",
  anniversary: "/video-maker/anniversary-video",
  thankyou: "/video-maker/thank-you-video",
  school: "/video-maker/school-video",
  "teacher-appreciation": "/video-maker/school-video",
  yearbook: "/video-maker/school-video",
  graduation: "/video-maker/graduation-video",
  business: "/video-maker/business-video",
  recognition: "/video-maker/recognition-video",
  military: "/video-maker/recognition-video",
  retirement: "/video-maker/retirement-video",
  farewell: "/video-maker/farewell-video",
  wedding: "/video-maker/wedding-video",
  mothers: "/video-maker/mothers-day-video",
  valentines: "/video-maker/valentines-day-video",
  getwell: "/video-maker/get-well-video",
  memorial: "/video-maker/memorial-video",
  babyshower: "/video-maker/baby-shower-video",
  barmitzvah: "/video-maker/bar-mitzvah-video",
  batmitzvah: "/video-maker/bar-mitzvah-video",
  holiday: "/video-maker/holiday-video",
};

const SETTINGS = { mainSiteUrl: "https://www.chorus.example", shareHost: "share.chorus.example" };

const linkFor = (type: string) => {
  const occasion = findOccasion(type);
  if (!occasion) throw new Error(`no occasion ${type}`);
  return resolveOccasionLink(occasion.to, SETTINGS);
};

describe("occasion catalogue", () => {
  test("holds the 24 spec types with their labels, in the spec's order", () => {
    expect(OCCASIONS.map((o) => [o.type, o.label])).toEqual(SPEC_LABELS);
    expect(OCCASION_TYPES).toEqual(SPEC_LABELS.map(([type]) => type));
  });

  test("has unique types, so valentines appears once", () => {
    expect(new Set(typesOf(OCCASIONS)).size).toBe(24);
    expect(typesOf(OCCASIONS).filter((type) => type === "valentines")).toHaveLength(1);
  });

  test("gives every entry every field with the right type", () => {
    for (const occasion of OCCASIONS) {
      expect(Object.keys(occasion).sort()).toEqual(
        ["emoji", "homePage", "isFree", "label", "phrase", "prefix", "public", "to", "type", "webApp"].sort(),
      );
      expect(["a", "an"]).toContain(occasion.prefix);
      for (const text of [occasion.label, occasion.phrase, occasion.emoji]) {
        expect(typeof text).toBe("string");
        expect(text.trim()).not.toBe("");
      }
      for (const flag of [occasion.isFree, occasion.homePage, occasion.webApp, occasion.public]) {
        expect(typeof flag).toBe("boolean");
      }
      expect(["marketing", "main-site", "share-start"]).toContain(occasion.to.kind);
    }
  });

  test("uses the article that agrees with the first sound of label and phrase", () => {
    expect(findOccasion("anniversary")?.prefix).toBe("an");
    for (const occasion of OCCASIONS) {
      const expected = (text: string) => (/^[aeiou]/i.test(text) ? "an" : "a");
      expect(occasion.prefix, occasion.type).toBe(expected(occasion.label));
      expect(occasion.prefix, occasion.type).toBe(expected(occasion.phrase));
    }
  });

  test("makes only getwell free", () => {
    expect(typesOf(OCCASIONS.filter((o) => o.isFree))).toEqual(["getwell"]);
  });

  test("offers every occasion in the web app except school and business", () => {
    expect(typesOf(OCCASIONS.filter((o) => !o.webApp))).toEqual(["school", "business"]);
    expect(typesOf(webAppOccasions())).toEqual(OCCASION_TYPES.filter((t) => t !== "school" && t !== "business"));
  });

  test("leaves exactly the seven named occasions off the home page", () => {
    const off = ["other", "teacher-appreciation", "yearbook", "business", "military", "congratulations", "holiday"];
    expect(typesOf(OCCASIONS.filter((o) => !o.homePage))).toEqual(off);
    expect(typesOf(homePageOccasions())).toEqual(OCCASION_TYPES.filter((t) => !off.includes(t)));
  });

  test("makes every occasion public", () => {
    expect(OCCASIONS.every((o) => o.public === true)).toBe(true);
  });
});

describe("lookups", () => {
  test("finds an occasion by type and nothing for an unknown one", () => {
    expect(findOccasion("wedding")?.label).toBe("Wedding");
    expect(findOccasion("valentine")).toBeUndefined();
    expect(findOccasion(WEDDING_GUESTBOOK_TYPE)).toBeUndefined();
  });

  test("recognises occasion types only", () => {
    for (const type of OCCASION_TYPES) expect(isOccasionType(type)).toBe(true);
    for (const value of ["", "Birthday", "wedding-guestbook", "toString", 1, null, undefined, {}]) {
      expect(isOccasionType(value)).toBe(false);
    }
  });
});

describe("marketing links (§2.3)", () => {
  test("points every in-app occasion at its page from the table", () => {
    const inApp = OCCASIONS.filter((o) => o.to.kind === "marketing");
    expect(typesOf(inApp).sort()).toEqual(Object.keys(MARKETING_LINKS).sort());
    for (const [type, path] of Object.entries(MARKETING_LINKS)) {
      expect(linkFor(type), type).toBe(path);
    }
  });

  test("reuses the school, recognition and bar mitzvah pages", () => {
    expect(linkFor("teacher-appreciation")).toBe(linkFor("school"));
    expect(linkFor("yearbook")).toBe(linkFor("school"));
    expect(linkFor("military")).toBe(linkFor("recognition"));
    expect(linkFor("batmitzvah")).toBe(linkFor("barmitzvah"));
  });

  test("lists each in-app marketing page once, in catalogue order", () => {
    expect(marketingPaths()).toEqual(
      [
        "birthday",
        "anniversary",
        "thank-you",
        "school",
        "graduation",
        "business",
        "recognition",
        "retirement",
        "farewell",
        "wedding",
        "mothers-day",
        "valentines-day",
        "get-well",
        "memorial",
        "baby-shower",
        "bar-mitzvah",
        "holiday",
      ].map((slug) => `/video-maker/${slug}-video`),
    );
  });

  test("links fathers to the main site's Father's Day page", () => {
    expect(linkFor("fathers")).toBe("https://www.chorus.example/video-maker/fathers-day-video");
    const occasion = findOccasion("fathers")!;
    expect(resolveOccasionLink(occasion.to, { ...SETTINGS, mainSiteUrl: "https://www.chorus.example/" })).toBe(
      "https://www.chorus.example/video-maker/fathers-day-video",
    );
  });

  test("links other and congratulations to the share host's start page", () => {
    expect(linkFor("other")).toBe("https://share.chorus.example/start?occasion=custom");
    expect(linkFor("congratulations")).toBe("https://share.chorus.example/start?occasion=congratulations");
  });
});

describe("guestbook occasions (§2.4)", () => {
  const list = guestbookOccasions();

  test("includes the public web-app occasions in catalogue order, wedding guestbook after wedding", () => {
    const expected = OCCASION_TYPES.filter((t) => t !== "school" && t !== "business").flatMap((t) =>
      t === "wedding" ? [t, WEDDING_GUESTBOOK_TYPE] : [t],
    );
    expect(typesOf(list)).toEqual(expected);
  });

  test("leaves out school and business", () => {
    expect(typesOf(list)).not.toContain("school");
    expect(typesOf(list)).not.toContain("business");
  });

  test("inserts the Wedding Guestbook entry directly after wedding", () => {
    const wedding = typesOf(list).indexOf("wedding");
    expect(WEDDING_GUESTBOOK_TYPE).toBe("wedding-guestbook");
    expect(list[wedding + 1]).toEqual({ type: "wedding-guestbook", label: "Wedding Guestbook" });
    expect(typesOf(list).filter((t) => t === WEDDING_GUESTBOOK_TYPE)).toHaveLength(1);
    // No two entries share a label.
    expect(new Set(list.map((o) => o.label)).size).toBe(list.length);
  });

  test("gives other and congratulations their own labels", () => {
    expect(list.find((o) => o.type === "other")?.label).toBe("Custom Event Guestbook");
    expect(list.find((o) => o.type === "congratulations")?.label).toBe("Congratulations Guestbook");
  });

  test("suffixes every other occasion's label with ' Guestbook'", () => {
    for (const option of list) {
      if (["other", "congratulations", "wedding", WEDDING_GUESTBOOK_TYPE].includes(option.type)) continue;
      expect(option.label).toBe(`${findOccasion(option.type)!.label} Guestbook`);
    }
    expect(list.find((o) => o.type === "birthday")?.label).toBe("Birthday Guestbook");
  });
});
