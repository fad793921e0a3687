import { Form } from "@remix-run/react";
import { useState, type FormEvent, type MouseEvent } from "react";
import { REPORT_FAILED_TOAST, REPORT_SENT_TOAST } from "~/domain/messages";
import { copyrightLine } from "~/domain/product";
import { api } from "~/lib/browser/api-client";
import type { ShellLinks } from "./shell-types";
import { useShellUi } from "./shell-ui";
import { useToast } from "./toasts";

/** On an event page, a viewer who is not its creator may report it (spec §2.2). */
export interface FooterReport {
  eventId: string;
}

export function Footer({ links, year, report }: { links: ShellLinks; year: number; report: FooterReport | null }) {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="footer-prompts">{report ? <ReportPrompt report={report} /> : <SupportPrompts />}</div>
        <nav aria-label="Footer">
          <ul>
            <li>
              <a href={links.pricing}>Pricing</a>
            </li>
            <li>
              <a href={links.help}>Help centre</a>
            </li>
            <li>
              <a href={links.faq}>FAQ</a>
            </li>
            <li>
              <a href={links.privacy}>Privacy</a>
            </li>
            <li>
              <a href={links.terms}>Terms</a>
            </li>
          </ul>
        </nav>
        <p>{copyrightLine(new Date(year, 0, 1))}</p>
      </div>
    </footer>
  );
}

function SupportPrompts() {
  const { openSupport } = useShellUi();
  const open = (kind: "chat" | "feedback") => (event: MouseEvent) => {
    event.preventDefault();
    openSupport(kind);
  };
  return (
    <>
      <p>
        Found a bug or issue?{" "}
        <a href="/support?kind=chat" onClick={open("chat")}>
          Start chat
        </a>
      </p>
      <p>
        Got a feature idea?{" "}
        <a href="/support?kind=feedback" onClick={open("feedback")}>
          Share it
        </a>
      </p>
    </>
  );
}

function ReportPrompt({ report }: { report: FooterReport }) {
  const showToast = useToast();
  const [sent, setSent] = useState(false);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      await api.post(`/v2/events/${report.eventId}/report`, {});
      setSent(true);
      showToast(REPORT_SENT_TOAST);
    } catch (error) {
      if ((error as Error).name !== "AbortError") showToast(REPORT_FAILED_TOAST);
    }
  }
  return (
    <Form method="post" action={`/api/v2/events/${report.eventId}/report`} onSubmit={onSubmit}>
      Noticed something unusual?{" "}
      <button type="submit" className="button--link button" disabled={sent}>
        Report This Page
      </button>
    </Form>
  );
}
