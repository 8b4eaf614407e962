import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { ApiError, api, request } from "../../api";
import { Button, Field, Loading } from "../../components/ui";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import type { PageProps } from "../../types";
import type { HelpContact } from "../../../konten/help";
import type { PrivacyNotice } from "../../../konten/privacy-notice";
import { ResourceError } from "../dosen/shared";
import { HelpContent } from "../mahasiswa/help";
import { NoticeText } from "../privasi/Notice";
import { safetyQuestion } from "../../../skrining/safety-question";
import { useAction, OutcomeNotice, type Outcome } from "../../components/outcome";
import { CommandHint, ConsolePage, type TextsAnswer } from "./shared";

const text = admin.teks;

/** Every problem the server listed for a text it refused, under its message. */
function Problems(props: { said: Outcome }) {
  const error = props.said?.kind === "error" ? props.said.error : undefined;
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
 * One text's editor: its form (the fields, then what the last save said and the save
 * button) beside a preview of what a student will see, and the commands that do the same.
 */
function TextEditor(props: {
  id: string;
  heading: string;
  intro: string;
  onSave: (event: Event) => void;
  act: ReturnType<typeof useAction>;
  preview: ComponentChildren;
  command: string;
  children: ComponentChildren;
}) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.heading}</h2>
      <p class="aside">{props.intro}</p>
      <div class="editor">
        <form class="form" onSubmit={props.onSave} noValidate>
          {props.children}
          <OutcomeNotice outcome={props.act.outcome} focus={false} />
          <Problems said={props.act.outcome} />
          <div class="button-row">
            <Button type="submit" busy={props.act.busy}>
              {text.save}
            </Button>
          </div>
        </form>
        <div class="preview" role="region" aria-label={`${text.preview}: ${props.heading}`}>
          <p class="preview-label">{text.preview}</p>
          {props.preview}
        </div>
      </div>
      <CommandHint command={props.command} />
    </section>
  );
}

/**
 * Teks: the help contact and the privacy notice, edited with a preview of what a student
 * will see; saved as `contact import` and `notice import` replace them. The optional safety
 * question, on or off with its contact, as `safety on|off` sets it (decisions §20).
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
          <SafetyEditor initial={texts.data.keselamatan} />
        </>
      )}
    </ConsolePage>
  );
}

function HelpEditor(props: { initial: HelpContact }) {
  const [help, setHelp] = useState<HelpContact>(props.initial);
  const act = useAction();
  const phone = (index: number, key: "label" | "nomor" | "keterangan", value: string) =>
    setHelp({ ...help, telepon: help.telepon.map((each, at) => (at === index ? { ...each, [key]: value } : each)) });

  const save = (event: Event) => {
    event.preventDefault();
    void act.run(async () => {
      const answer = await request<{ message: string; bantuan: HelpContact }>("PUT", "/api/admin/teks/bantuan", { json: help });
      setHelp(answer.bantuan);
      return answer.message;
    });
  };

  return (
    <TextEditor
      id="teks-bantuan"
      heading={text.helpHeading}
      intro={text.helpIntro}
      onSave={save}
      act={act}
      preview={<HelpContent help={help} urgent={false} headingId="pratinjau-bantuan" />}
      command="skrining contact export > bantuan.json; skrining contact import bantuan.json"
    >
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
    </TextEditor>
  );
}

function NoticeEditor(props: { initial: PrivacyNotice }) {
  const [saved, setSaved] = useState(props.initial);
  const [notice, setNotice] = useState(props.initial);
  const act = useAction();
  const save = (event: Event) => {
    event.preventDefault();
    void act.run(async () => {
      const answer = await request<{ message: string; pemberitahuan: PrivacyNotice }>("PUT", "/api/admin/teks/pemberitahuan", { json: notice });
      setSaved(answer.pemberitahuan);
      setNotice(answer.pemberitahuan);
      return answer.message;
    });
  };

  return (
    <TextEditor
      id="teks-pemberitahuan"
      heading={text.noticeHeading}
      intro={text.noticeIntro}
      onSave={save}
      act={act}
      preview={<NoticeText notice={{ ...notice, acknowledged: null }} headingId="pratinjau-pemberitahuan" />}
      command="skrining notice export > pemberitahuan.json; skrining notice import pemberitahuan.json"
    >
      <Field label={text.version} hint={text.versionHint(saved.version)}>
        {({ id, describedBy }) => <input id={id} value={notice.version} aria-describedby={describedBy} onInput={(event) => setNotice({ ...notice, version: event.currentTarget.value })} />}
      </Field>
      <p class="hint">
        {notice.version.trim() !== saved.version
          ? text.newVersion(notice.version.trim())
          : notice.title.trim() !== saved.title || notice.text.trim() !== saved.text
            ? text.changedNeedsVersion(saved.version)
            : text.sameVersion}
      </p>
      <Field label={text.title}>{({ id }) => <input id={id} value={notice.title} onInput={(event) => setNotice({ ...notice, title: event.currentTarget.value })} />}</Field>
      <Field label={text.text} hint={text.textHint}>
        {({ id, describedBy }) => <textarea id={id} rows={10} value={notice.text} aria-describedby={describedBy} onInput={(event) => setNotice({ ...notice, text: event.currentTarget.value })} />}
      </Field>
    </TextEditor>
  );
}

type SafetyState = TextsAnswer["keselamatan"];

function SafetyEditor(props: { initial: SafetyState }) {
  const [state, setState] = useState({ aktif: props.initial.aktif, nama_kontak: props.initial.nama_kontak ?? "", telepon_kontak: props.initial.telepon_kontak ?? "" });
  const act = useAction();
  const save = (event: Event) => {
    event.preventDefault();
    void act.run(async () => {
      const answer = await request<{ message: string; keselamatan: SafetyState }>("PUT", "/api/admin/teks/keselamatan", { json: state });
      setState({ aktif: answer.keselamatan.aktif, nama_kontak: answer.keselamatan.nama_kontak ?? "", telepon_kontak: answer.keselamatan.telepon_kontak ?? "" });
      return answer.message;
    });
  };
  return (
    <TextEditor
      id="teks-keselamatan"
      heading={text.safetyHeading}
      intro={text.safetyIntro}
      onSave={save}
      act={act}
      preview={
        state.aktif ? (
          <div class="safety-preview">
            <p>
              <strong>{safetyQuestion.text}</strong>
            </p>
            <ol>
              {safetyQuestion.words.map((word) => (
                <li key={word}>{word}</li>
              ))}
            </ol>
            <p class="hint">{text.safetyCritical(safetyQuestion.criticalFrom)}</p>
          </div>
        ) : (
          <p>{text.safetyPreviewOff}</p>
        )
      }
      command={'skrining safety on --contact "Konselor fakultas" --phone "0812 3456 7890"; skrining safety off'}
    >
      <label class="choice">
        <input type="checkbox" checked={state.aktif} onChange={(event) => setState({ ...state, aktif: event.currentTarget.checked })} />
        {text.safetyOn}
      </label>
      <Field label={text.safetyContact} hint={text.safetyContactHint}>
        {({ id, describedBy }) => (
          <input id={id} value={state.nama_kontak} aria-describedby={describedBy} onInput={(event) => setState({ ...state, nama_kontak: event.currentTarget.value })} />
        )}
      </Field>
      <Field label={text.safetyPhone}>
        {({ id }) => <input id={id} type="tel" value={state.telepon_kontak} onInput={(event) => setState({ ...state, telepon_kontak: event.currentTarget.value })} />}
      </Field>
    </TextEditor>
  );
}
