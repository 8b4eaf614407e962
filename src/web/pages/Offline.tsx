import { storedSessionUserId } from "../api";
import { Button, Page } from "../components/ui";
import { useOffline } from "../connection";
import { common } from "../strings";
import { draftKey, readDraft } from "./mahasiswa/shared";
import "./offline.css";

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
 * session cannot be checked. It says so, and that nothing unsent is lost; it tries again by
 * itself when the connection is back (src/web/session.ts).
 */
export function OfflinePage(props: { onRetry: () => void }) {
  const kept = keptDrafts();
  return (
    <Page title={common.offlineTitle}>
      <p>{common.offlineText}</p>
      {kept.answers > 0 && <p>{common.offlineQuestionnaire(kept.answers)}</p>}
      {kept.diary && <p>{common.offlineDiary}</p>}
      <Button onClick={props.onRetry}>{common.retry}</Button>
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
