import { useEffect } from "preact/hooks";
import { storedSessionUserId } from "../api";
import { Button, Page } from "../components/ui";
import { useOffline } from "../connection";
import { keptHelpContact } from "../help-contact";
import { common } from "../strings";
import { HelpContent } from "./mahasiswa/help";
import { draftKey, readDraft } from "./mahasiswa/shared";
import "./offline.css";

/** How often the offline page asks the server itself whether it answers again. */
const pollMilliseconds = 4000;

/**
 * Asks the server every few seconds (GET /health, which the service worker leaves to the
 * network) and calls `answered` at the first answer of any kind: the browser's "online"
 * event does not come when the Wi-Fi stayed up and the server was what went away.
 */
function usePollServer(answered: () => void): void {
  useEffect(() => {
    let stopped = false;
    const timer = setInterval(() => {
      fetch("/health", { cache: "no-store" }).then(
        () => !stopped && answered(),
        () => undefined,
      );
    }, pollMilliseconds);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
}

/** What this browser keeps unsent for the account of the stored session: answers of the questionnaire, a diary text. */
function keptDrafts(): { answers: number; diary: boolean } {
  const userId = storedSessionUserId();
  if (userId === null) return { answers: 0, diary: false };
  const questionnaire = readDraft(draftKey("kuesioner", { Id_User: userId }));
  const diary = readDraft(draftKey("jurnal", { Id_User: userId })) as { new?: { content?: unknown }; edit?: unknown } | null;
  const answers = questionnaire?.answers;
  return {
    answers: answers && typeof answers === "object" ? Object.keys(answers).length : 0,
    diary: Boolean((typeof diary?.new?.content === "string" && diary.new.content.trim()) || diary?.edit),
  };
}

/**
 * A reload without a connection: the page opened (the service worker kept it), but the
 * session cannot be checked. It says so, that nothing unsent is lost, and whom to call (the
 * help contact as last fetched); it tries again by itself when the browser is back online
 * (src/web/session.ts) or the server answers its poll.
 */
export function OfflinePage(props: { onRetry: () => void }) {
  const kept = keptDrafts();
  const help = keptHelpContact();
  usePollServer(props.onRetry);
  return (
    <Page title={common.offlineTitle}>
      <p>{common.offlineText}</p>
      {kept.answers > 0 && <p>{common.offlineQuestionnaire(kept.answers)}</p>}
      {kept.diary && <p>{common.offlineDiary}</p>}
      <Button onClick={props.onRetry}>{common.retry}</Button>
      {help && <HelpContent help={help} urgent={false} headingId="bantuan-offline" />}
    </Page>
  );
}

/** Said at the top of every page while skrining cannot be reached. */
export function OfflineBanner() {
  const offline = useOffline();
  return (
    <div class="offline-banner" role="status">
      {offline && <p>{common.offlineBanner}</p>}
    </div>
  );
}
