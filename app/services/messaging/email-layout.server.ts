import { PRODUCT_NAME } from "~/domain/product";

interface EmailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footnote?: string;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Every e-mail in both forms: plain text for any client, simple inline-styled HTML. */
export function renderEmail(content: EmailContent) {
  const text = [
    content.heading,
    "",
    ...content.paragraphs.flatMap((p) => [p, ""]),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ""] : []),
    ...(content.footnote ? [content.footnote, ""] : []),
    `— The ${PRODUCT_NAME} team`,
  ].join("\n");

  const button = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#1f5fd6;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:13px;color:#555">Or paste this link into your browser:<br><span style="word-break:break-all">${escapeHtml(content.action.url)}</span></p>`
    : "";
  const html = `<!doctype html><html><body style="margin:0;background:#f5f7fb;font-family:Helvetica,Arial,sans-serif;color:#1c2333">
<div style="max-width:560px;margin:0 auto;padding:32px 24px;background:#fff">
<p style="font-size:22px;font-weight:700;color:#1f5fd6;margin:0 0 24px">${PRODUCT_NAME}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
${button}
${content.footnote ? `<p style="font-size:13px;color:#555">${escapeHtml(content.footnote)}</p>` : ""}
<p style="font-size:13px;color:#555">— The ${PRODUCT_NAME} team</p>
</div></body></html>`;

  return { subject: content.subject, text, html };
}
