// Where a password is typed: one labelled field, and a new password typed twice as the
// activation and the one-time password's replacement ask for it, with the password rule
// checked before a round trip (the server checks the same rule, src/accounts/password-rule.ts).
import type { Ref } from "preact";
import { useRef, useState } from "preact/hooks";
import { breaksPasswordRule, passwordRule } from "../../accounts/password-rule";
import { activation } from "../strings";
import { Field } from "./ui";

/** A labelled password input. `name` and `required` only where the form has them. */
export function PasswordField(props: {
  label: string;
  hint?: string;
  error?: string | null;
  name?: string;
  autocomplete: "current-password" | "new-password";
  required?: boolean;
  value: string;
  onInput: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {({ id, describedBy, invalid }) => (
        <input
          ref={props.inputRef}
          id={id}
          name={props.name}
          type="password"
          autocomplete={props.autocomplete}
          required={props.required}
          value={props.value}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onInput={(event) => props.onInput(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

type Problem = { field: "new" | "repeat"; text: string };

/** The rule, then that the password differs from the one it replaces (`sameText` when not), then the repetition. */
export function newPasswordProblem(newPassword: string, repeated: string, replaced: string, sameText: string): Problem | null {
  if (breaksPasswordRule(newPassword)) return { field: "new", text: passwordRule };
  if (newPassword === replaced) return { field: "new", text: sameText };
  if (newPassword !== repeated) return { field: "repeat", text: activation.mismatch };
  return null;
}

/** The two fields' values and what is wrong with them, for the form that holds them. */
export function useNewPassword() {
  const [newPassword, setNewPassword] = useState("");
  const [repeated, setRepeated] = useState("");
  const [problem, setProblem] = useState<Problem | null>(null);
  const newInput = useRef<HTMLInputElement>(null);
  const repeatInput = useRef<HTMLInputElement>(null);
  /** Whether the password may be sent; if not, the problem is shown and its field takes the focus. */
  const check = (replaced: string, sameText: string): boolean => {
    const found = newPasswordProblem(newPassword, repeated, replaced, sameText);
    setProblem(found);
    if (found) (found.field === "new" ? newInput : repeatInput).current?.focus();
    return found === null;
  };
  return { newPassword, setNewPassword, repeated, setRepeated, problem, newInput, repeatInput, check };
}

/** The new password and its repetition. `names`: the inputs' names, for a form that has them; `required` marks both. */
export function NewPasswordFields(props: {
  state: ReturnType<typeof useNewPassword>;
  labels: { newPassword: string; newPasswordHint: string; repeat: string };
  names?: { newPassword: string; repeat: string };
  required?: boolean;
}) {
  const { state, labels, names, required } = props;
  return (
    <>
      <PasswordField
        label={labels.newPassword}
        hint={labels.newPasswordHint}
        error={state.problem?.field === "new" ? state.problem.text : null}
        name={names?.newPassword}
        autocomplete="new-password"
        required={required}
        value={state.newPassword}
        onInput={state.setNewPassword}
        inputRef={state.newInput}
      />
      <PasswordField
        label={labels.repeat}
        error={state.problem?.field === "repeat" ? state.problem.text : null}
        name={names?.repeat}
        autocomplete="new-password"
        required={required}
        value={state.repeated}
        onInput={state.setRepeated}
        inputRef={state.repeatInput}
      />
    </>
  );
}
