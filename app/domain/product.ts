// The product's name in one place: every route, title and e-mail reads it from here.
export const PRODUCT_NAME = "Chorus";
export const PRODUCT_PLURAL = "Choruses";
export const PRODUCT_SLUG = PRODUCT_NAME.toLowerCase();

/** What search results and shared links say of a page that has no words of its own for it. */
export const PRODUCT_DESCRIPTION = "Collect photos and clips from friends and family and turn them into one video gift.";
export const START_PATH = `/start-a-${PRODUCT_SLUG}`;
export const DASHBOARD_TITLE = `My ${PRODUCT_PLURAL}`;
export const VIP_CARD_TITLE = `Go VIP with ${PRODUCT_NAME}`;
export const VIP_CARD_TEXT = "More savings, more perks, more reasons to celebrate.";
export const START_TITLE = `Start a New ${PRODUCT_NAME}`;

/** The copyright line starts in the year the business began (spec §2.2). */
export const FOUNDING_YEAR = 2015;
export const copyrightLine = (now: Date) => `© ${FOUNDING_YEAR}–${now.getFullYear()} ${PRODUCT_NAME}`;

/** Query flags the analytics layer reads once, then removes from the URL (spec §2.2). */
export const ANALYTICS_URL_FLAGS = ["gtm_event_sign_up", "gtm_event_login", `gtm_event_start_${PRODUCT_SLUG}`] as const;
