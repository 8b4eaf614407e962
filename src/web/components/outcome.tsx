// How an action of a page ends, for the student's pages and the console alike: busy while it
// runs, then its message or its error, announced.
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { ErrorNotice, Notice } from "./ui";

export type Outcome = { kind: "success"; text: string } | { kind: "error"; error: unknown } | null;

/**
 * One action at a time (a student's save, a console act): busy while it runs, then its
 * success text or its error. `work` answers the text to show, or null/undefined to show nothing.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  async function run(work: () => Promise<string | null | undefined>): Promise<boolean> {
    setBusy(true);
    setOutcome(null);
    try {
      const text = await work();
      if (text) setOutcome({ kind: "success", text });
      return true;
    } catch (error) {
      setOutcome({ kind: "error", error });
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, outcome, setOutcome, run };
}

/**
 * What an action came to, announced and focused: the button that started it was disabled
 * while it ran, so the focus goes where the answer is (unless `focus` is false: the
 * control that started it is still there).
 */
export function OutcomeNotice(props: { outcome: Outcome; focus?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (props.outcome && props.focus !== false) box.current?.focus();
  }, [props.outcome]);
  if (!props.outcome) return null;
  return (
    <div class="outcome" ref={box} tabIndex={-1}>
      {props.outcome.kind === "success" ? (
        <Notice kind="success">
          <p>{props.outcome.text}</p>
        </Notice>
      ) : (
        <ErrorNotice error={props.outcome.error} />
      )}
    </div>
  );
}
