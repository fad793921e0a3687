// What a completed checkout for a posted order came to, in a file of its own: the payment effects
// (commerce/payment-event-fields.server.ts) list it among every effect, and the order's payment
// (payment.server.ts) answers with it.

export type MailOrderPaidEffect =
  { effect: "mail-order"; mailOrderId: string; alreadyPaid: boolean } | { effect: "ignored"; reason: string };
