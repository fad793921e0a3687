import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormMessages } from "~/components/ui/field";
import { OccasionIcon } from "~/components/ui/occasion-icon";
import { SubmitButton } from "~/components/ui/submit-button";
import { PRODUCT_NAME } from "~/domain/product";
import type { ReviewSummary } from "./review-summary.server";
import { STEPS, stepPath, type StepId } from "./steps";

interface Props {
  summary: ReviewSummary;
  loggedIn: boolean;
  loginHref: string;
  registerHref: string;
  formError?: string;
}

function Section({ step, title, problems, children }: { step: StepId; title: string; problems: string[]; children: ReactNode }) {
  const stepTitle = STEPS.find((s) => s.id === step)!.title.toLowerCase();
  return (
    <section
      className={`start-review__section${problems.length ? " start-review__section--problem" : ""}`}
      aria-labelledby={`review-${step}`}
    >
      <div className="start-review__head">
        <h3 id={`review-${step}`}>{title}</h3>
        <Link to={stepPath(step)} className="start-review__edit">
          Edit<span className="visually-hidden"> {stepTitle}</span>
        </Link>
      </div>
      {problems.map((problem) => (
        <p key={problem} className="field-error">
          {problem}
        </p>
      ))}
      {children}
    </section>
  );
}

const Missing = ({ children }: { children: ReactNode }) => <p className="start-review__missing">{children}</p>;

/** Step 4: everything at a glance, with a way back to each step, then create (after logging in). */
export function ReviewStep({ summary, loggedIn, loginHref, registerHref, formError }: Props) {
  const { occasion, deadline, problems } = summary;
  return (
    <div className="start-form">
      <FormMessages formError={formError} />
      <div className="start-review__preview">
        <span className="start-review__emoji">
          <OccasionIcon type={occasion?.type ?? "congratulations"} />
        </span>
        <div>
          <p className="start-review__kicker">Your {PRODUCT_NAME}</p>
          <p className="start-review__headline">{summary.headline}</p>
        </div>
      </div>

      <Section step="occasion" title="Occasion" problems={problems.occasion}>
        {occasion ? (
          <p>
            {occasion.label} {occasion.guestbook ? <span className="badge">Guestbook</span> : null}
          </p>
        ) : (
          <Missing>No occasion chosen yet.</Missing>
        )}
      </Section>

      <Section step="recipients" title="For" problems={problems.recipients}>
        <p>{summary.recipients}</p>
      </Section>

      <Section step="details" title="Details" problems={problems.details}>
        <dl className="start-review__list">
          <dt>Deadline</dt>
          <dd>{deadline ? `${deadline.day} at ${deadline.time}, ${deadline.zone}` : "Not set yet"}</dd>
          <dt>Title</dt>
          <dd>{summary.hasTitle ? summary.headline : <span className="start-review__muted">None: “{summary.headline}”</span>}</dd>
          <dt>Message</dt>
          <dd className="start-review__message">{summary.message || <span className="start-review__muted">No message</span>}</dd>
          <dt>Questions</dt>
          <dd>
            {summary.prompts.length ? (
              <ol className="start-review__prompts">
                {summary.prompts.map((prompt, index) => (
                  <li key={index}>{prompt}</li>
                ))}
              </ol>
            ) : (
              <span className="start-review__muted">No questions</span>
            )}
          </dd>
        </dl>
      </Section>

      {loggedIn ? (
        <Form method="post" action={stepPath("review")} className="start-actions">
          <Link className="button button--secondary" to={stepPath("details")}>
            Back
          </Link>
          <SubmitButton name="intent" value="create" pending="Starting…">
            {`Start my ${PRODUCT_NAME}`}
          </SubmitButton>
        </Form>
      ) : (
        <section className="start-login" aria-labelledby="start-login-heading">
          <h3 id="start-login-heading">One last thing: log in to start it</h3>
          <p>
            Your {PRODUCT_NAME} needs an organiser account so you can invite people and see clips arrive. We'll keep everything you've
            entered.
          </p>
          <div className="start-actions">
            <Link className="button" to={loginHref}>
              Log In
            </Link>
            <Link className="button button--secondary" to={registerHref}>
              Create Account
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
