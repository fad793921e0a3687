import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { isApiError } from "~/lib/http.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { receiveFormUpload } from "~/services/form-upload.server";

// The no-JavaScript upload: the contribution form posts here and comes back to the event page.
export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/e/${params.uuid}`);

export async function action({ request, params }: ActionFunctionArgs) {
  const back = `/e/${params.uuid}${new URL(request.url).search}`;
  try {
    const recorded = await receiveFormUpload(request, params.uuid ?? "");
    const what = recorded.length === 1 ? "Your file arrived" : `Your ${recorded.length} files arrived`;
    return redirectWithCookies(back, [await toastHeader({ type: "success", title: "Thank you!", description: `${what}. We're getting it ready now.` })]);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return redirectWithCookies(back, [await toastHeader({ type: "error", title: "Upload failed", description: error.message })]);
  }
}
