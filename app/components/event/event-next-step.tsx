import type { NextStep, NextStepTarget } from "~/domain/next-step";

/** Where a next step's link goes: a part of this page, or the arrange or checkout page. */
function hrefOf(to: NextStepTarget, uuid: string, cartPath: string) {
  if ("section" in to) return `#${to.section}`;
  return to.page === "checkout" ? cartPath : `/e/${uuid}/arrange`;
}

/** The card the organiser's page opens with: the one thing that moves their Chorus forward now. */
export function EventNextStep({ step, uuid, cartPath }: { step: NextStep; uuid: string; cartPath: string }) {
  return (
    <section className={`card next-step next-step--${step.kind}`} aria-labelledby="next-step-heading">
      <p className="next-step__label">What's next</p>
      <h2 id="next-step-heading">{step.title}</h2>
      <p>{step.text}</p>
      {step.action || step.also ? (
        <p className="next-step__actions">
          {step.action ? (
            <a className="button" href={hrefOf(step.action.to, uuid, cartPath)}>
              {step.action.label}
            </a>
          ) : null}
          {step.also ? <a href={hrefOf(step.also.to, uuid, cartPath)}>{step.also.label}</a> : null}
        </p>
      ) : null}
    </section>
  );
}
