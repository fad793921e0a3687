import { Link } from "@remix-run/react";
import { CheckIcon } from "~/components/ui/icons";
import { STEPS, stepIndex, stepPath, type StepId } from "./steps";

/** "Step 2 of 4" and the list of steps; the ones already done link back. */
export function StepProgress({ current }: { current: StepId }) {
  const at = stepIndex(current);
  return (
    <nav className="start-progress" aria-label="Progress">
      <p className="start-progress__count">{`Step ${at + 1} of ${STEPS.length}`}</p>
      <ol className="start-progress__steps">
        {STEPS.map((step, index) => {
          const state = index < at ? "done" : index === at ? "current" : "todo";
          const content = (
            <>
              <span className="start-progress__dot" aria-hidden="true">
                {state === "done" ? <CheckIcon size={14} strokeWidth={3} /> : index + 1}
              </span>
              <span className="start-progress__label">{step.title}</span>
            </>
          );
          return (
            <li
              key={step.id}
              className={`start-progress__step start-progress__step--${state}`}
              aria-current={state === "current" ? "step" : undefined}
            >
              {state === "done" ? <Link to={stepPath(step.id)}>{content}</Link> : content}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
