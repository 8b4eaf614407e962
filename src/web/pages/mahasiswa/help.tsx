// Where a student finds help, as the faculty wrote it: the numbers to call as tel: links,
// then the text. On a Tinggi stress result it comes first, above the levels (decisions §13).
import { fetchHelpContact } from "../../help-contact";
import { ErrorNotice } from "../../components/ui";
import { useResource } from "../../hooks";
import { pathOf } from "../../routes";
import { student } from "../../strings";
import type { Hasil } from "../../types";
import type { HelpContact } from "../../../konten/help";
import { dialled } from "../../../konten/help-phone";

const text = student.bantuan;

/** The phone numbers as buttons a thumb can reach, each saying who answers and what to do. */
function Phones(props: { help: HelpContact }) {
  if (props.help.telepon.length === 0) return null;
  return (
    <ul class="help-phones">
      {props.help.telepon.map((phone) => (
        <li key={phone.nomor}>
          <a class="button button-primary help-phone" href={`tel:${dialled(phone.nomor)}`}>
            {text.call(phone.label, phone.nomor)}
          </a>
          {phone.keterangan && <span class="hint"> {phone.keterangan}</span>}
        </li>
      ))}
    </ul>
  );
}

/**
 * The help card. `urgent`: a Tinggi stress result, shown first and announced; `brief`: the
 * numbers and a way to the whole text (Beranda).
 */
export function HelpCard(props: { urgent: boolean; brief?: boolean }) {
  const help = useResource(fetchHelpContact);
  if (help.error) return <ErrorNotice error={help.error} onRetry={help.reload} />;
  if (!help.data) return null;
  return <HelpContent help={help.data} urgent={props.urgent} brief={props.brief} sectionId="bantuan" headingId="bantuan-judul" />;
}

/** A help text as a student sees it (also the admin console's preview of a text not saved yet). */
export function HelpContent(props: { help: HelpContact; urgent: boolean; brief?: boolean; sectionId?: string; headingId: string }) {
  return (
    <section id={props.sectionId} class={`card tile help${props.urgent ? " help-urgent" : ""}`} aria-labelledby={props.headingId}>
      <h2 id={props.headingId}>{props.help.title}</h2>
      {props.urgent && <p>{text.urgent}</p>}
      <Phones help={props.help} />
      {props.brief ? (
        <p>
          <a href={`${pathOf("hasil")}#bantuan`}>{text.more}</a>
        </p>
      ) : (
        props.help.text
          .split(/\n\s*\n/)
          .filter((paragraph) => paragraph.trim())
          .map((paragraph, index) => <p key={index}>{paragraph.trim()}</p>)
      )}
    </section>
  );
}

/**
 * Decisions §20: the safety question answered 3 or more. The person who answers the same
 * day, as a `tel:` link, before anything else on the page; the help numbers follow it.
 */
export function SafetyHelp(props: { contact: NonNullable<Hasil["bantuan_segera"]> }) {
  const { nama, telepon } = props.contact;
  return (
    <section class="card tile help help-urgent" aria-labelledby="bantuan-segera-judul" role="alert">
      <h2 id="bantuan-segera-judul">{text.safetyTitle}</h2>
      <p>{text.safetyText}</p>
      {telepon && (
        <p>
          <a class="button button-primary help-phone" href={`tel:${dialled(telepon)}`}>
            {text.safetyCall(nama ?? "", telepon)}
          </a>
        </p>
      )}
      <p>{text.safetyEmergency}</p>
    </section>
  );
}

/** Whether a person was alerted to this result, said truthfully (decisions §13); nothing when nothing needs saying. */
export function ReachNotice(props: { result: Hasil }) {
  const reach = props.result.tindak_lanjut;
  const line = reach
    ? reach.dibuka_oleh_skrining_ini
      ? text.alerted[reach.penerima]
      : text.alreadyFollowed[reach.penerima]
    : props.result.tingkat_stres === "Tinggi"
      ? text.notAlerted
      : null;
  if (!line) return null;
  return (
    <p class="notice notice-info reach" role="status">
      {line}
    </p>
  );
}
