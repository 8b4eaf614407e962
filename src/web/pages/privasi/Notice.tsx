// The privacy notice as the faculty wrote it, and the page a student must pass before any
// other when they have not acknowledged the version in force.
import { useState } from "preact/hooks";
import { Button, ErrorNotice, Page } from "../../components/ui";
import { acceptPrivacyNotice, recheckPrivacy, signOut, type PrivacyGate } from "../../session";
import { common, privacy } from "../../strings";
import type { PrivacyNotice } from "../../types";
import "./privasi.css";

/** The notice's text, a blank line starting a new paragraph, under its own heading. */
export function NoticeText(props: { notice: PrivacyNotice; headingId: string }) {
  return (
    <section class="card privacy-notice" aria-labelledby={props.headingId}>
      <h2 id={props.headingId}>{props.notice.title}</h2>
      <p class="hint">{privacy.version(props.notice.version)}</p>
      {props.notice.text
        .split(/\n\s*\n/)
        .filter((paragraph) => paragraph.trim())
        .map((paragraph, index) => (
          <p key={index} class="entry-content">
            {paragraph.trim()}
          </p>
        ))}
    </section>
  );
}

/**
 * Before any page: the notice in force and one choice, to accept it (recorded with its
 * version) or to sign out. A notice that cannot be loaded is retried, not skipped.
 */
export function PrivacyGatePage(props: { gate: NonNullable<PrivacyGate> }) {
  const [busy, setBusy] = useState<"accept" | "leave" | null>(null);
  const [error, setError] = useState<unknown>(null);
  const { notice } = props.gate;
  const shownError = error ?? props.gate.error;

  async function accept() {
    if (!notice) return;
    setBusy("accept");
    setError(null);
    try {
      await acceptPrivacyNotice(notice.version);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  }

  async function leave() {
    setBusy("leave");
    try {
      await signOut();
    } finally {
      setBusy(null);
    }
  }

  return (
    <Page title={privacy.gate.title}>
      {!notice && <p>{privacy.gate.unavailable}</p>}
      {shownError !== undefined && shownError !== null && <ErrorNotice error={shownError} onRetry={notice ? undefined : () => void recheckPrivacy()} />}
      {notice && (
        <>
          <p>{privacy.gate.intro}</p>
          <NoticeText notice={notice} headingId="pemberitahuan-isi" />
          <p class="hint">{privacy.gate.declineHint}</p>
          <div class="button-row">
            <Button busy={busy === "accept"} disabled={busy !== null} onClick={() => void accept()}>
              {busy === "accept" ? privacy.gate.accepting : privacy.gate.accept}
            </Button>
            <Button variant="secondary" busy={busy === "leave"} disabled={busy !== null} onClick={() => void leave()}>
              {busy === "leave" ? common.signingOut : privacy.gate.decline}
            </Button>
          </div>
        </>
      )}
      {!notice && (
        <div class="button-row">
          <Button variant="secondary" busy={busy === "leave"} onClick={() => void leave()}>
            {busy === "leave" ? common.signingOut : common.signOut}
          </Button>
        </div>
      )}
    </Page>
  );
}
