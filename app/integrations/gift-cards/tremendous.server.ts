import {
  Configuration,
  Environments,
  OrdersApi,
  ProductsApi,
  type CreateOrder200Response,
  type CreateOrder200ResponseOrder,
  type GetOrder200Response,
  type GetProductResponse,
  type ListProductsResponse,
  type ListProductsResponseProductsInner,
} from "tremendous";
import { minorDigits } from "~/domain/commerce/money";
import { GiftCardServiceError, type GiftCardOrder, type GiftCardProduct, type GiftCardProvider } from "./gift-cards-port";

export interface TremendousSettings {
  apiKey: string;
  /** Tremendous's production API unless set (its sandbox, or a stand-in in tests). */
  baseUrl?: string;
  /** The funding source orders are paid from ("balance": the account's prepaid balance). */
  fundingSourceId: string;
  timeoutMs: number;
}

// Tremendous writes amounts in the currency's units (45.5 dollars); the app in minor units (4550 cents).
const toMinor = (major: number, currency: string) => Math.round(major * 10 ** minorDigits(currency));
const toMajor = (minor: number, currency: string) => minor / 10 ** minorDigits(currency);

function asProduct(product: ListProductsResponseProductsInner): GiftCardProduct | null {
  const currency = product.currency_codes[0];
  const skus = product.skus ?? [];
  if (!currency || skus.length === 0) return null;
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    currency,
    minAmount: toMinor(Math.min(...skus.map((s) => s.min)), currency),
    maxAmount: toMinor(Math.max(...skus.map((s) => s.max)), currency),
    imageUrl: product.images[0]?.src ?? null,
  };
}

/** What is read of an order, as both its creation and its retrieval answer it. */
type TremendousOrder = Pick<CreateOrder200ResponseOrder, "id" | "external_id" | "status"> & {
  rewards?: { delivery?: { status?: string; link?: string } }[];
};

function asOrder(order: TremendousOrder): GiftCardOrder {
  const reward = order.rewards?.[0];
  const failed = order.status === "FAILED" || order.status === "CANCELED" || reward?.delivery?.status === "FAILED";
  const delivered = order.status === "EXECUTED" && reward?.delivery?.status === "SUCCEEDED";
  return {
    id: order.id,
    externalId: order.external_id ?? null,
    status: failed ? "failed" : delivered ? "delivered" : "received",
    claimUrl: reward?.delivery?.link ?? null,
  };
}

const statusOf = (error: unknown): number | undefined => (error as { response?: { status?: number } } | null)?.response?.status;

/** The SDK's (axios's) failures as the port's: a plain message, and whether trying again may work. */
function asServiceError(error: unknown): GiftCardServiceError {
  const status = statusOf(error);
  if (status === undefined) return new GiftCardServiceError("The gift-card service could not be reached.", true);
  if (status === 429 || status >= 500) return new GiftCardServiceError("The gift-card service had a problem on its side.", true);
  if (status === 401 || status === 403) console.error("The gift-card service refused our credentials.");
  return new GiftCardServiceError("The gift-card service refused this request.", false);
}

// The SDK's answers are axios responses; only their bodies, typed by the SDK's own models, are read.
async function call<T>(run: () => Promise<{ data: unknown }>): Promise<T> {
  try {
    return (await run()).data as T;
  } catch (error) {
    throw asServiceError(error);
  }
}

async function orNullWhenMissing<T>(run: () => Promise<{ data: unknown }>): Promise<T | null> {
  try {
    return await call<T>(run);
  } catch (error) {
    if (error instanceof GiftCardServiceError && !error.retryable) return null;
    throw error;
  }
}

/** Tremendous through its official SDK: products per country, and one LINK order per gift, idempotent by `external_id`. */
export function tremendousProvider(settings: TremendousSettings): GiftCardProvider {
  const configuration = new Configuration({
    basePath: settings.baseUrl ?? Environments.production,
    accessToken: settings.apiKey,
    baseOptions: { timeout: settings.timeoutMs },
  });
  const products = new ProductsApi(configuration);
  const orders = new OrdersApi(configuration);

  return {
    name: "tremendous",
    async listProducts(country) {
      const data = await call<ListProductsResponse>(() => products.listProducts(country));
      return data.products.flatMap((product) => asProduct(product) ?? []);
    },
    async getProduct(id) {
      const answer = await orNullWhenMissing<GetProductResponse>(() => products.getProduct(id));
      return answer ? asProduct(answer.product) : null;
    },
    async createOrder(input) {
      const data = await call<CreateOrder200Response>(() =>
        orders.createOrder({
          // Tremendous answers a repeated external_id with the order it made the first time.
          external_id: input.externalId,
          payment: { funding_source_id: settings.fundingSourceId },
          reward: {
            products: [input.productId],
            value: { denomination: toMajor(input.amount, input.currency), currency_code: input.currency as "USD" },
            recipient: { name: input.recipient.name, email: input.recipient.email },
            // A link: the recipient claims the card from their Chorus page rather than a vendor e-mail.
            delivery: { method: "LINK" },
          },
        }),
      );
      return asOrder(data.order);
    },
    async getOrder(id) {
      const answer = await orNullWhenMissing<GetOrder200Response>(() => orders.getOrder(id));
      return answer ? asOrder(answer.order) : null;
    },
  };
}
