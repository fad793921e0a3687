import type { PromoCode, User } from "drizzle/schema";
import { productByKey } from "~/domain/commerce/catalogue";
import { formatMoney } from "~/domain/commerce/money";
import { describeDiscount, promoCodeState } from "~/domain/commerce/promo-codes";
import type { PromoCodeInput } from "~/domain/commerce/staff-input";
import { db } from "~/lib/db.server";
import { badRequest, notFound } from "~/lib/http.server";
import { countLiveHoldsByCode } from "~/models/promo-code-hold.server";
import {
  findPromoCodeById,
  insertPromoCode,
  listPromoCodesWithUses,
  listRedemptionsOfCode,
  setPromoCodePaused,
} from "~/models/promo-code.server";
import { newPromoCode } from "~/services/commerce/promo-codes.server";
import { recentStaffActions, recordStaffAction } from "./staff-actions.server";

// Promo codes as administrators manage them at /admin/promo-codes: made, paused and resumed,
// each change recorded with who made it.

export const PROMO_CODES_PAGE_SIZE = 50;

/** "2030-12-31 23:59 UTC": the last minute a code works. */
const lastMinute = (expiresAt: Date) => `${new Date(expiresAt.getTime() - 60_000).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** A code for staff; `held` counts the uses held by payment pages still open (docs/decisions/046). */
function codeView(code: PromoCode, uses: number, held: number, now: Date) {
  return {
    id: code.id,
    code: code.code,
    kind: code.kind,
    description: describeDiscount(code),
    uses,
    held,
    limit: code.maxRedemptions,
    perUser: code.maxPerUser,
    expires: code.expiresAt ? lastMinute(code.expiresAt) : null,
    state: promoCodeState(code, uses, now),
    paused: code.paused,
    products: code.productKeys.map((key) => productByKey(key)?.name ?? key),
    firstPurchaseOnly: code.firstPurchaseOnly,
    owner: code.ownerEmail ?? (code.ownerUserId ? "one account" : null),
    createdAt: code.createdAt.toISOString(),
  };
}

export async function listPromoCodesForStaff(page: number) {
  const now = new Date();
  const rows = await listPromoCodesWithUses(db(), { limit: PROMO_CODES_PAGE_SIZE + 1, offset: (page - 1) * PROMO_CODES_PAGE_SIZE });
  const shown = rows.slice(0, PROMO_CODES_PAGE_SIZE);
  const held = await countLiveHoldsByCode(
    db(),
    shown.map((row) => row.code.id),
  );
  return {
    codes: shown.map((row) => codeView(row.code, row.uses, held.get(row.code.id) ?? 0, now)),
    hasMore: rows.length > PROMO_CODES_PAGE_SIZE,
  };
}

const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: string } | null)?.code === "23505" || (!!error && isUniqueViolation((error as { cause?: unknown }).cause));

/** Makes a code (its own text, or a generated one), recorded as made by `admin`. */
export async function createPromoCodeByStaff(admin: Pick<User, "id" | "email">, input: PromoCodeInput) {
  const fields = {
    kind: input.kind,
    value: input.value,
    currency: input.currency,
    expiresAt: input.expiresOn,
    maxRedemptions: input.maxRedemptions,
    maxPerUser: input.maxPerUser,
    productKeys: input.productKeys,
    firstPurchaseOnly: input.firstPurchaseOnly,
    createdBy: admin.id,
  };
  try {
    return await db().transaction(async (tx) => {
      const code = await insertPromoCode(tx, { ...fields, code: input.code ?? newPromoCode("CHORUS") });
      await recordStaffAction(
        admin,
        "promo_code_created",
        { type: "promo_code", id: code.id },
        {
          code: code.code,
          discount: describeDiscount(code),
          expiresAt: code.expiresAt?.toISOString() ?? null,
          maxRedemptions: code.maxRedemptions,
          maxPerUser: code.maxPerUser,
          products: code.productKeys.join(",") || null,
          firstPurchaseOnly: code.firstPurchaseOnly,
        },
        { tx },
      );
      return code;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const message = `There is already a code ${input.code ?? ""}; choose another, or leave it empty for one made up.`;
    throw badRequest(message, { code: message });
  }
}

async function requireCode(id: string) {
  const code = await findPromoCodeById(db(), id);
  if (!code) throw notFound("There is no promo code with this id.");
  return code;
}

/** Pauses or resumes a code; asking for the state it is already in changes and records nothing. */
export async function setPromoCodePausedByStaff(admin: Pick<User, "id" | "email">, id: string, paused: boolean) {
  const code = await requireCode(id);
  if (code.paused === paused) return { code, changed: false };
  const updated = await db().transaction(async (tx) => {
    const changed = await setPromoCodePaused(tx, id, paused);
    await recordStaffAction(
      admin,
      paused ? "promo_code_paused" : "promo_code_resumed",
      { type: "promo_code", id },
      { code: code.code },
      { tx },
    );
    return changed!;
  });
  return { code: updated, changed: true };
}

/** A code with who used it and what staff did to it. */
export async function promoCodeDetailForStaff(id: string) {
  const code = await requireCode(id);
  const [redemptions, actions, held] = await Promise.all([
    listRedemptionsOfCode(db(), id),
    recentStaffActions({ type: "promo_code", id }),
    countLiveHoldsByCode(db(), [id]),
  ]);
  return {
    code: codeView(code, redemptions.length, held.get(id) ?? 0, new Date()),
    redemptions: redemptions.map((row) => ({
      id: row.redemption.id,
      at: row.redemption.createdAt.toISOString(),
      buyerEmail: row.buyerEmail,
      discount: formatMoney(row.redemption.discount, row.redemption.currency),
      chorus: row.eventUuid ? { uuid: row.eventUuid, title: row.eventTitle || "Untitled Chorus" } : null,
      invoiceNumber: row.invoiceNumber,
    })),
    actions,
  };
}
