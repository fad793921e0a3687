import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerLocalPaymentsApi } from "~/services/payments/local/api.server";

/** The local payment service's API (used when no STRIPE_SECRET_KEY is set): the SDK's calls land here. */
const handle = ({ request, params }: LoaderFunctionArgs | ActionFunctionArgs) => answerLocalPaymentsApi(request, params["*"] ?? "");
export { handle as loader, handle as action };
