import { describe, expect, test } from "vitest";
import { BUILT_IN_THEMES, PREMIUM_BACKGROUND_URLS } from "~/domain/built-in-themes";
import { BUILT_IN_TRACKS } from "~/domain/built-in-tracks";
import { productByKey } from "~/domain/commerce/catalogue";
import { defaultResolution, premiumNeedsOf, premiumRequiredMessage, type RenderChoices } from "~/domain/commerce/premium";

const plain: RenderChoices = {
  resolution: "720p",
  theme: { name: "Golden Hour", isPremium: false },
  track: { title: "Warm Sunday", isPremium: false },
};

describe("what a render needs the premium finish for", () => {
  test("a 720p render with a plain theme and track needs nothing, nor one without music", () => {
    expect(premiumNeedsOf(plain)).toEqual([]);
    expect(premiumNeedsOf({ ...plain, track: null })).toEqual([]);
  });

  test("1080p HD, a premium theme and a premium track each need it, named as the organiser sees them", () => {
    const needs = premiumNeedsOf({
      resolution: "1080p",
      theme: { name: "Confetti", isPremium: true },
      track: { title: "Party Lights", isPremium: true },
    });
    expect(needs.map((n) => n.what)).toEqual(["1080p HD", "the theme “Confetti”", "the track “Party Lights”"]);
    expect(needs.map((n) => n.instead)).toEqual(["720p", "another theme", "another track"]);
  });

  test("the refusal names what is premium, the cart, and what to choose instead", () => {
    expect(premiumRequiredMessage(premiumNeedsOf({ ...plain, resolution: "1080p" }), "/e/abc/checkout")).toBe(
      "1080p HD is part of the Premium finish. Add it to this Chorus at /e/abc/checkout, or choose 720p.",
    );
    const looks = premiumNeedsOf({
      ...plain,
      theme: { name: "Scrapbook", isPremium: true },
      track: { title: "Confetti Pop", isPremium: true },
    });
    expect(premiumRequiredMessage(looks, "/e/abc/checkout")).toBe(
      "The theme “Scrapbook” and the track “Confetti Pop” are part of the Premium finish. Add it to this Chorus at /e/abc/checkout, or choose another theme and another track.",
    );
  });

  test("a render nobody chose a quality for is the organiser's last choice with premium, and 720p without", () => {
    expect(defaultResolution(true, "1080p")).toBe("1080p");
    expect(defaultResolution(true, "720p")).toBe("720p");
    expect(defaultResolution(false, "1080p")).toBe("720p");
  });
});

describe("what is premium", () => {
  test("about a third of the built-in themes and tracks, never the default theme", () => {
    const themes = BUILT_IN_THEMES.filter((t) => t.premium);
    const tracks = BUILT_IN_TRACKS.filter((t) => t.premium);
    expect(themes.map((t) => t.slug)).toEqual(["confetti", "garden-collage", "scrapbook"]);
    expect(tracks.map((t) => t.slug)).toEqual(["confetti-pop", "party-lights"]);
    expect(themes.find((t) => t.slug === "golden-hour")).toBeUndefined();
    expect(PREMIUM_BACKGROUND_URLS).toEqual(themes.flatMap((t) => [t.introUrl, t.outroUrl]));
  });

  test("the premium finish promises only what it gives", () => {
    expect(productByKey("premium")!.gives).toEqual(["Download in 1080p HD", "Every premium theme and track"]);
    expect(JSON.stringify(productByKey("premium"))).not.toMatch(/end card/i);
  });
});
