// The small parts every page is made of: a page frame, labelled fields, buttons, notices.
import type { ComponentChildren, JSX } from "preact";
import { useId, useLayoutEffect, useRef } from "preact/hooks";
import { ApiError } from "../api";
import { toneOf, type Measure } from "../levels";
import { common, errors } from "../strings";
import type { Level } from "../types";

/**
 * A page: its title in the tab and as the one `h1`, which takes the focus when the page
 * opens so that a screen reader announces where the user now is.
 */
export function Page(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A layout effect: the focus moves in the same task as the render that shows the page,
  // so nothing (a screen reader, a test) meets the new page with the focus still elsewhere.
  useLayoutEffect(() => {
    document.title = `${props.title} · ${common.appName}`;
    heading.current?.focus();
  }, [props.title]);
  return (
    <div class="page">
      <div class="page-head">
        <h1 ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </div>
      {props.children}
    </div>
  );
}

type FieldProps = {
  label: string;
  hint?: string;
  error?: string | null;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => JSX.Element;
};

/** A labelled control with an optional hint and error, both read out with the control. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class={`field${error ? " field-invalid" : ""}`}>
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children({ id, describedBy: described, invalid: Boolean(error) })}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function Button(props: JSX.IntrinsicElements["button"] & { variant?: "primary" | "secondary" | "danger" | "link"; busy?: boolean }) {
  const { variant = "primary", busy, children, class: className, disabled, ...rest } = props;
  return (
    <button type="button" {...rest} class={`button button-${variant}${className ? ` ${className}` : ""}`} disabled={Boolean(disabled) || busy} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}

/**
 * A message in the page. Errors are announced at once (`alert`), everything else politely
 * (`status`); both stay on the page until the next action.
 */
export function Notice(props: { kind: "error" | "success" | "info" | "warning"; children: ComponentChildren }) {
  return (
    <div class={`notice notice-${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/** A question asked in the page (never `window.confirm`), its safe answer focused first. */
export function Confirm(props: { id: string; question: string; yes: string; busy: boolean; onYes: () => void; onNo: () => void }) {
  useLayoutEffect(() => document.getElementById(`${props.id}-no`)?.focus(), []);
  return (
    <div class="confirm" role="group" aria-labelledby={`${props.id}-question`}>
      <p id={`${props.id}-question`}>{props.question}</p>
      <div class="button-row">
        <Button variant="danger" busy={props.busy} onClick={props.onYes}>
          {props.yes}
        </Button>
        <Button variant="secondary" id={`${props.id}-no`} onClick={props.onNo}>
          {common.cancel}
        </Button>
      </div>
    </div>
  );
}

/** What went wrong, as the server said it (and when to retry), or that the network is down. */
export function describeError(error: unknown): string {
  return error instanceof ApiError ? error.text : errors.unexpected;
}

export function ErrorNotice(props: { error: unknown; onRetry?: () => void }) {
  return (
    <Notice kind="error">
      <p>{describeError(props.error)}</p>
      {props.onRetry && (
        <Button variant="secondary" onClick={props.onRetry}>
          {common.retry}
        </Button>
      )}
    </Notice>
  );
}

export function Loading() {
  return (
    <p class="loading" role="status">
      {common.loading}
    </p>
  );
}

/** A level with its word, never by colour alone; the colour says good news or a concern for its measure. */
export function LevelTag(props: { measure: Measure; level: Level | string; label?: string }) {
  return (
    <span class={`level ${toneOf(props.measure, props.level)}`}>
      {props.label ? `${props.label}: ` : ""}
      {common.levels[props.level] ?? props.level}
    </span>
  );
}
