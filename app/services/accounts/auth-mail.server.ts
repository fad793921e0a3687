import { PRODUCT_NAME } from "~/domain/product";
import { env } from "~/lib/env.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";

const link = (path: string) => `${env().APP_URL}${path}`;

export function sendVerificationEmail(to: string, token: string) {
  return sendMail({
    to,
    ...renderEmail({
      subject: `Confirm your e-mail address for ${PRODUCT_NAME}`,
      heading: `Welcome to ${PRODUCT_NAME}!`,
      paragraphs: ["Please confirm your e-mail address to finish creating your account."],
      action: { label: "Confirm my e-mail", url: link(`/auth/activate/${token}`) },
      footnote: "This link works once and expires in 48 hours. If you did not sign up, ignore this e-mail.",
    }),
  });
}

export function sendPasswordResetEmail(to: string, token: string) {
  return sendMail({
    to,
    ...renderEmail({
      subject: `Reset your ${PRODUCT_NAME} password`,
      heading: "Reset your password",
      paragraphs: ["Someone (hopefully you) asked to reset the password of this account."],
      action: { label: "Choose a new password", url: link(`/auth/reset-password/${token}`) },
      footnote: "This link works once and expires in 1 hour. If you did not ask for it, your password stays as it is.",
    }),
  });
}

export function sendEmailChangeConfirmation(to: string, token: string) {
  return sendMail({
    to,
    ...renderEmail({
      subject: `Confirm your new e-mail address for ${PRODUCT_NAME}`,
      heading: "Confirm your new e-mail address",
      paragraphs: [`You asked to use this address to log in to ${PRODUCT_NAME}.`],
      action: { label: "Confirm this address", url: link(`/auth/activate/${token}`) },
      footnote: "This link works once and expires in 24 hours. Until then you log in with your old address.",
    }),
  });
}

export function sendEmailChangedNotice(to: string, newEmail: string) {
  return sendMail({
    to,
    ...renderEmail({
      subject: `Your ${PRODUCT_NAME} e-mail address was changed`,
      heading: "Your e-mail address was changed",
      paragraphs: [`From now on you log in with ${newEmail}.`, "If this was not you, contact us right away."],
    }),
  });
}
