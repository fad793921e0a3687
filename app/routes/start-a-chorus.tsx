import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { PRODUCT_NAME, PRODUCT_SLUG, START_TITLE } from "~/domain/product";
import type { StartDraft } from "~/domain/start-draft";
import { timeZoneOptions } from "~/domain/time-zones";
import { dayIn } from "~/domain/zoned-time";
import { analyticsClientIdFromCookie } from "~/lib/browser/analytics";
import { unstorableFormFields, readForm } from "~/lib/form.server";
import { isApiError } from "~/lib/http.server";
import { redirectWithCookies, withAnalyticsFlag } from "~/lib/redirects.server";
import { getUser } from "~/services/accounts/current-user.server";
import { createEvent } from "~/services/events/events.server";
import { clearStartDraft, loadStartDraft, saveStartDraft } from "~/services/events/start-draft-session.server";
import { DetailsStep } from "./start-a-chorus/details-step";
import { occasionChoices, offeredChoice } from "./start-a-chorus/occasion-choices";
import { OccasionStep } from "./start-a-chorus/occasion-step";
import { RecipientsStep } from "./start-a-chorus/recipients-step";
import { ReviewStep } from "./start-a-chorus/review-step";
import { defaultHeadline, reviewSummary } from "./start-a-chorus/review-summary.server";
import { applyRowIntent, readStepForm, validateDraft, validateStep, withoutBlankRows } from "./start-a-chorus/step-form.server";
import { StepProgress } from "./start-a-chorus/step-progress";
import { nextStep, previousStep, STEPS, stepFromUrl, stepIndex, stepPath, type StepId } from "./start-a-chorus/steps";

export const meta: MetaFunction = () => [{ title: `${START_TITLE} — ${PRODUCT_NAME}` }];

const DAY_MS = 24 * 60 * 60 * 1000;
/** A fresh Chorus gives contributors two weeks. */
const DEFAULT_DEADLINE_DAYS = 14;
const START_FLAG = `gtm_event_start_${PRODUCT_SLUG}`;

const authLink = (page: "login" | "register") => `/auth/${page}?redirectTo=${encodeURIComponent(stepPath("review"))}`;

/** The draft as the page shows it: a marketing link's occasion and a default deadline filled in. */
function withPageDefaults(draft: StartDraft, step: StepId, url: URL, now: Date): StartDraft {
  const fromLink = step === "occasion" ? offeredChoice(url.searchParams.get("occasion")) : null;
  return {
    ...draft,
    ...(fromLink ? { occasion: fromLink, guestbook: draft.guestbook || fromLink === "wedding-guestbook" } : {}),
    deadlineDate: draft.deadlineDate || dayIn(new Date(now.getTime() + DEFAULT_DEADLINE_DAYS * DAY_MS), draft.timeZone || "UTC"),
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const step = stepFromUrl(url);
  const now = new Date();
  const [user, stored] = await Promise.all([getUser(request), loadStartDraft(request)]);
  const draft = withPageDefaults(stored.draft, step, url, now);
  return json(
    {
      step,
      loggedIn: !!user,
      draft,
      errors: stored.errors ?? {},
      choices: step === "occasion" ? occasionChoices() : [],
      timeZones: step === "details" ? timeZoneOptions(draft.timeZone || "UTC", now) : [],
      firstDay: dayIn(now, "UTC"),
      lastDay: dayIn(new Date(now.getTime() + 365 * DAY_MS), "UTC"),
      defaultHeadline: defaultHeadline(draft),
      review: step === "review" ? reviewSummary(draft, now) : null,
      loginHref: authLink("login"),
      registerHref: authLink("register"),
    },
    { headers: stored.setCookie ? { "Set-Cookie": stored.setCookie } : undefined },
  );
}

interface StepReply {
  draft: StartDraft;
  errors: Record<string, string>;
  formError?: string;
}

/** Creates the event from a complete draft, or sends the organiser to the step that needs them. */
async function startChorus(request: Request, draft: StartDraft) {
  const user = await getUser(request);
  if (!user) throw redirect(authLink("login"));
  const check = validateDraft(draft, analyticsClientIdFromCookie(request.headers.get("Cookie")));
  if (!check.ok) return redirectWithCookies(stepPath(check.step), [await saveStartDraft(request, draft, check.errors)]);
  const event = await createEvent(user, check.input);
  return redirectWithCookies(withAnalyticsFlag(`/e/${event.uuid}`, START_FLAG), [await clearStartDraft(request)]);
}

export async function action({ request }: ActionFunctionArgs) {
  const step = stepFromUrl(new URL(request.url));
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "next");
  const { draft: stored } = await loadStartDraft(request);
  // The draft lives in the session: text it cannot keep is refused before it gets there.
  const unstorable = unstorableFormFields(form);
  if (unstorable) return json<StepReply>({ draft: stored, errors: unstorable }, { status: 400 });
  if (step === "review") return startChorus(request, stored);

  const draft = readStepForm(step, form, stored);
  try {
    const withRows = applyRowIntent(intent, draft);
    if (withRows) {
      // Without JavaScript the page reloads: land on the list that changed.
      const anchor = intent.includes("recipient") ? "#add-recipient" : "#add-prompt";
      return redirectWithCookies(stepPath(step) + anchor, [await saveStartDraft(request, withRows)]);
    }
    if (intent === "back") return redirectWithCookies(stepPath(previousStep(step)), [await saveStartDraft(request, draft)]);
    const errors = validateStep(step, draft);
    if (Object.keys(errors).length > 0) {
      // Kept even when wrong: Back, reloads and other steps must not lose it.
      const cookie = await saveStartDraft(request, draft);
      return json<StepReply>({ draft, errors }, { status: 400, headers: { "Set-Cookie": cookie } });
    }
    return redirectWithCookies(stepPath(nextStep(step)), [await saveStartDraft(request, withoutBlankRows(draft))]);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return json<StepReply>({ draft, errors: error.fields ?? {}, formError: error.message }, { status: error.status });
  }
}

export default function StartPage() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const draft = reply?.draft ?? data.draft;
  const errors = reply?.errors ?? data.errors;
  const step = STEPS[stepIndex(data.step)]!;
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(data.step);

  // Moving between steps without a page load: take keyboard and screen reader focus to the new step.
  useEffect(() => {
    if (shownStep.current === data.step) return;
    shownStep.current = data.step;
    heading.current?.focus();
  }, [data.step]);

  // After a failed Next (with JavaScript), take focus to the first field that needs attention.
  useEffect(() => {
    if (!reply?.errors || !Object.keys(reply.errors).length) return;
    const card = document.querySelector(".start__card");
    (card?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? card?.querySelector<HTMLElement>('input[name="occasion"]'))?.focus();
  }, [reply]);

  const hasErrors = Object.keys(errors).length > 0;
  return (
    <div className="start">
      <header className="start__head">
        <h1>{START_TITLE}</h1>
        <p>Collect clips from everyone, we turn them into one video gift. It takes about two minutes.</p>
      </header>
      <StepProgress current={data.step} />
      <div className="card start__card">
        {/* The progress bar shows the step's name; this heading is where focus lands on a new step. */}
        <h2 className="start__step-title visually-hidden" ref={heading} tabIndex={-1}>
          {`Step ${stepIndex(data.step) + 1} of ${STEPS.length}: ${step.title}`}
        </h2>
        {data.step !== "review" ? (
          <FormMessages formError={reply?.formError ?? (hasErrors ? "Please check the highlighted fields." : undefined)} />
        ) : null}
        {data.step === "occasion" ? (
          <OccasionStep key={JSON.stringify(draft)} draft={draft} errors={errors} choices={data.choices} />
        ) : null}
        {data.step === "recipients" ? <RecipientsStep key={JSON.stringify(draft.recipients)} draft={draft} errors={errors} /> : null}
        {data.step === "details" ? (
          <DetailsStep
            key={JSON.stringify(draft)}
            draft={draft}
            errors={errors}
            timeZones={data.timeZones}
            firstDay={data.firstDay}
            lastDay={data.lastDay}
            defaultHeadline={data.defaultHeadline}
          />
        ) : null}
        {data.step === "review" && data.review ? (
          <ReviewStep
            summary={data.review}
            loggedIn={data.loggedIn}
            loginHref={data.loginHref}
            registerHref={data.registerHref}
            formError={errors.form}
          />
        ) : null}
      </div>
      {!data.loggedIn && data.step !== "review" ? (
        <p className="start__aside">
          No account needed yet: you can log in or create one at the end without losing anything. Already have one?{" "}
          <Link to={`/auth/login?redirectTo=${encodeURIComponent(stepPath(data.step))}`}>Log In</Link>
        </p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
