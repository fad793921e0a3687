import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { asPageError, clientIp, isApiError } from "~/lib/http.server";
import { multipartPostOf } from "~/lib/multipart.server";
import { uuidParam } from "~/lib/params.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser } from "~/services/accounts/current-user.server";
import { receiveFormUpload } from "~/services/uploads/form-upload.server";

/** The event page the form came from. An id that is not one cannot go into a Location header (a NUL would throw): a 404. */
function eventPagePath(rawUuid: string | undefined) {
  try {
    return `/e/${uuidParam(rawUuid, "Chorus")}`;
  } catch (error) {
    throw asPageError(error);
  }
}

// The no-JavaScript upload: the contribution form posts here and comes back to the event page.
export const loader = ({ params }: LoaderFunctionArgs) => redirect(eventPagePath(params.uuid));

export async function action({ request, params }: ActionFunctionArgs) {
  const back = `${eventPagePath(params.uuid)}${new URL(request.url).search}`;
  try {
    const sender = { user: await getUser(request), clientIp: clientIp(request) };
    const { media, entry } = await receiveFormUpload(multipartPostOf(request), params.uuid ?? "", sender);
    const description = entry
      ? "Your message is in the guestbook."
      : `${media.length === 1 ? "Your file arrived" : `Your ${media.length} files arrived`}. We're getting it ready now.`;
    return redirectWithCookies(back, [await toastHeader({ type: "success", title: "Thank you!", description })]);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const title = error.code === "VALIDATION_FAILED" ? "Please check your message" : "Upload failed";
    const description = error.fields ? Object.values(error.fields).join(" ") : error.message;
    return redirectWithCookies(back, [await toastHeader({ type: "error", title, description })]);
  }
}
