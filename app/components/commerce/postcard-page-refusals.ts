import { saidWithHint, type StatusWords } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";

const refused = saidWithHint(
  `The link may be incomplete, or you may be logged in with another account: only the organiser's account sees a ${PRODUCT_NAME}'s postcards.`,
);

/** What the postcard pages say when their loader refuses: what it said was not there, and why that may be. */
export const POSTCARD_PAGE_REFUSALS: StatusWords = { 400: refused, 401: refused, 403: refused, 404: refused, 410: refused };
