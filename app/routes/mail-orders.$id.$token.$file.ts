import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadResponse, fileResponse } from "~/lib/file-response.server";
import { apiResource, notFound } from "~/lib/http.server";
import { labelArtOf, labelPdf, orderForFiles, videoOf } from "~/services/mail-orders/files.server";

/**
 * GET /mail-orders/{id}/{token}/video.mp4 and …/label.pdf: what the fulfilment service fetches to make
 * a paid order (docs/decisions/029-dvds-and-keepsakes-by-post.md). 404 without the order's own token.
 */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ params }) {
    const order = await orderForFiles(params.id, params.token);
    if (!order) throw notFound();
    if (params.file === "video.mp4") return fileResponse(await videoOf(order));
    if (params.file === "label.pdf")
      return downloadResponse(labelPdf(await labelArtOf(order)), { fileName: "label.pdf", contentType: "application/pdf" });
    throw notFound();
  },
});
