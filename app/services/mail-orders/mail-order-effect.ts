// What a completed checkout for a posted order came to, in a file of its own: the payment event's
// readers (commerce/payment-event-fields.server.ts) list it among every effect, and the order's
// payment (payment.server.ts) uses those readers.

export type MailOrderPaidEffect =
  { effect: "mail-order"; mailOrderId: string; alreadyPaid: boolean } | { effect: "ignored"; reason: string };
