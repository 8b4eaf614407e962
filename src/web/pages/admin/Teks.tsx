import { useState } from "preact/hooks";
import { ApiError, api, request } from "../../api";
import { Button, Field, Loading } from "../../components/ui";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import type { PageProps } from "../../types";
import type { HelpContact } from "../../../content/help";
import type { PrivacyNotice } from "../../../content/privacy-notice";
import { ResourceError } from "../dosen/shared";
import { HelpContent } from "../mahasiswa/help";
import { NoticeText } from "../privasi/Notice";
import { CommandHint, ConsolePage, Outcome, type TextsAnswer } from "./shared";

const text = admin.teks;
type Said = { kind: "success" | "error"; text?: string; error?: unknown } | null;

/** Every problem the server listed for a text it refused, under its message. */
function Problems(props: { said: Said }) {
  const error = props.said?.error;
  if (!(error instanceof ApiError) || !Array.isArray(error.body.masalah)) return null;
  return (
    <ul class="problem-lines" aria-label={text.problems}>
      {(error.body.masalah as string[]).map((problem) => (
        <li key={problem}>{problem}</li>
      ))}
    </ul>
  );
}

/**
 * Teks: the help contact and the privacy notice, edited with a preview of what a student
 * will see; saved as `contact import` and `notice import` replace them.
 */
export function Teks(_props: PageProps) {
  const texts = useResource(() => api.get<TextsAnswer>("/api/admin/teks"));
  return (
    <ConsolePage current="adminTeks" intro={text.intro}>
      <ResourceError resource={texts} />
      {!texts.data ? (
        texts.loading && <Loading />
      ) : (
        <>
          <HelpEditor initial={texts.data.bantuan} />
          <NoticeEditor initial={texts.data.pemberitahuan} />
        </>
      )}
    </ConsolePage>
  );
}

function HelpEditor(props: { initial: HelpContact }) {
  const [help, setHelp] = useState<HelpContact>(props.initial);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<Said>(null);
  const phone = (index: number, key: "label" | "nomor" | "keterangan", value: string) =>
    setHelp({ ...help, telepon: help.telepon.map((each, at) => (at === index ? { ...each, [key]: value } : each)) });

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    setSaid(null);
    try {
      const answer = await request<{ message: string; bantuan: HelpContact }>("PUT", "/api/admin/teks/bantuan", { json: help });
      setHelp(answer.bantuan);
      setSaid({ kind: "success", text: answer.message });
    } catch (error) {
      setSaid({ kind: "error", error });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="teks-bantuan">
      <h2 id="teks-bantuan">{text.helpHeading}</h2>
      <p class="aside">{text.helpIntro}</p>
      <div class="editor">
        <form class="form" onSubmit={save} noValidate>
          <Field label={text.title}>{({ id }) => <input id={id} value={help.title} onInput={(event) => setHelp({ ...help, title: event.currentTarget.value })} />}</Field>
          <Field label={text.text} hint={text.textHint}>
            {({ id, describedBy }) => <textarea id={id} rows={6} value={help.text} aria-describedby={describedBy} onInput={(event) => setHelp({ ...help, text: event.currentTarget.value })} />}
          </Field>
          <fieldset class="phones">
            <legend>{text.phones}</legend>
            {help.telepon.map((each, index) => (
              <div class="phone-row" role="group" aria-label={text.phone(index + 1)} key={index}>
                <Field label={text.phoneLabel}>{({ id }) => <input id={id} value={each.label} onInput={(event) => phone(index, "label", event.currentTarget.value)} />}</Field>
                <Field label={text.phoneNumber}>{({ id }) => <input id={id} type="tel" value={each.nomor} onInput={(event) => phone(index, "nomor", event.currentTarget.value)} />}</Field>
                <Field label={text.phoneNote}>{({ id }) => <input id={id} value={each.keterangan} onInput={(event) => phone(index, "keterangan", event.currentTarget.value)} />}</Field>
                <Button variant="link" onClick={() => setHelp({ ...help, telepon: help.telepon.filter((_, at) => at !== index) })}>
                  {text.removePhone}
                </Button>
              </div>
            ))}
            {help.telepon.length < 5 && (
              <Button variant="secondary" onClick={() => setHelp({ ...help, telepon: [...help.telepon, { label: "", nomor: "", keterangan: "" }] })}>
                {text.addPhone}
              </Button>
            )}
          </fieldset>
          <Outcome outcome={said} />
          <Problems said={said} />
          <div class="button-row">
            <Button type="submit" busy={busy}>
              {text.save}
            </Button>
          </div>
        </form>
        <div class="preview" role="region" aria-label={`${text.preview}: ${text.helpHeading}`}>
          <p class="preview-label">{text.preview}</p>
          <HelpContent help={help} urgent={false} headingId="pratinjau-bantuan" />
        </div>
      </div>
      <CommandHint command="skrining contact export > bantuan.json; skrining contact import bantuan.json" />
    </section>
  );
}

function NoticeEditor(props: { initial: PrivacyNotice }) {
  const [saved, setSaved] = useState(props.initial);
  const [notice, setNotice] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<Said>(null);

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    setSaid(null);
    try {
      const answer = await request<{ message: string; pemberitahuan: PrivacyNotice }>("PUT", "/api/admin/teks/pemberitahuan", { json: notice });
      setSaved(answer.pemberitahuan);
      setNotice(answer.pemberitahuan);
      setSaid({ kind: "success", text: answer.message });
    } catch (error) {
      setSaid({ kind: "error", error });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="teks-pemberitahuan">
      <h2 id="teks-pemberitahuan">{text.noticeHeading}</h2>
      <p class="aside">{text.noticeIntro}</p>
      <div class="editor">
        <form class="form" onSubmit={save} noValidate>
          <Field label={text.version} hint={text.versionHint(saved.version)}>
            {({ id, describedBy }) => <input id={id} value={notice.version} aria-describedby={describedBy} onInput={(event) => setNotice({ ...notice, version: event.currentTarget.value })} />}
          </Field>
          <p class="hint">
            {notice.version.trim() === saved.version ? text.sameVersion : text.newVersion(notice.version.trim())}
          </p>
          <Field label={text.title}>{({ id }) => <input id={id} value={notice.title} onInput={(event) => setNotice({ ...notice, title: event.currentTarget.value })} />}</Field>
          <Field label={text.text} hint={text.textHint}>
            {({ id, describedBy }) => <textarea id={id} rows={10} value={notice.text} aria-describedby={describedBy} onInput={(event) => setNotice({ ...notice, text: event.currentTarget.value })} />}
          </Field>
          <Outcome outcome={said} />
          <Problems said={said} />
          <div class="button-row">
            <Button type="submit" busy={busy}>
              {text.save}
            </Button>
          </div>
        </form>
        <div class="preview" role="region" aria-label={`${text.preview}: ${text.noticeHeading}`}>
          <p class="preview-label">{text.preview}</p>
          <NoticeText notice={{ ...notice, acknowledged: null }} headingId="pratinjau-pemberitahuan" />
        </div>
      </div>
      <CommandHint command="skrining notice export > pemberitahuan.json; skrining notice import pemberitahuan.json" />
    </section>
  );
}
