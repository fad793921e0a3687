import type { StatusWords } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";

/**
 * What a page of one Chorus says when its loader refuses: there is no such Chorus, staff took it
 * down, or this viewer may not open this page (`whoMay` says who may).
 */
export function chorusPageRefusals(whoMay: string): StatusWords {
  const notYours = {
    title: "You can't open this page",
    text: `${whoMay} Log in with that account, or ask the organiser for a fresh link.`,
  };
  return {
    401: notYours,
    403: notYours,
    404: {
      title: `We couldn't find this ${PRODUCT_NAME}`,
      text: "The link may be incomplete, or the organiser may have removed it. Ask them for a fresh link.",
    },
    // Taken down by staff after a report: the same words for the public, recipients and contributors.
    410: { title: `This ${PRODUCT_NAME} is unavailable`, text: "It has been taken down and can no longer be viewed or added to." },
  };
}
