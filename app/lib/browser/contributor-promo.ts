// The contributor promo code, kept in the browser (spec §3 "Values kept locally in the browser"):
// shown after contributing, offered again when that person starts and pays for a Chorus of their own.

const KEY = "chorus.contributorPromoCode";

export function keepContributorPromoCode(code: string) {
  try {
    window.localStorage.setItem(KEY, code);
  } catch {
    // Storage refused (private mode, quota): the code is still on the page and in its link.
  }
}

export function keptContributorPromoCode(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}
