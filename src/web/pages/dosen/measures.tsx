// Decisions §20 on the staff pages: how to read one screening — whether its answers can be
// read as they stand ("tafsirkan dengan hati-hati" with the reason in words), its reliable
// change, its percentiles and the safety question's answer. The student's page, the list of
// advisees and the history share it.
import { staff } from "../../strings";
import type { Skrining } from "../../types";
import { isCriticalAnswer } from "../../../skrining/safety-question";

const text = staff.measures;

/** The reasons in words, joined as a sentence does. */
const reasonsInWords = (reasons: readonly string[]) => {
  const words = reasons.map((reason) => text.reason[reason] ?? reason);
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} dan ${words.at(-1)}`;
};

/** "Tafsirkan dengan hati-hati" with why, when the answers call for it; nothing otherwise. */
export function ValidityCaution(props: { record: Pick<Skrining, "validitas"> }) {
  const validity = props.record.validitas;
  if (!validity || validity.status !== "hati_hati") return null;
  return <p class="notice notice-warning caution">{text.cautionBecause(reasonsInWords(validity.alasan))}</p>;
}

/** The short badge a list shows, its reason in its title and for a screen reader. */
export function CautionBadge(props: { record: Pick<Skrining, "validitas"> }) {
  const validity = props.record.validitas;
  if (!validity || validity.status !== "hati_hati") return null;
  return (
    <span class="badge badge-warning">
      {text.caution}
      <span class="visually-hidden">: {reasonsInWords(validity.alasan)}</span>
    </span>
  );
}

/** The reliable change, the percentiles and the safety answer, each when the record has it. */
export function MeasureLines(props: { record: Skrining }) {
  const { record } = props;
  const lines: { line: string; urgent: boolean }[] = [];
  if (record.perubahan_andal) lines.push({ line: `${text.change[record.perubahan_andal] ?? record.perubahan_andal}.`, urgent: false });
  if (record.persentil_stres !== null && record.persentil_motivasi !== null) lines.push({ line: text.percentiles(record.persentil_stres, record.persentil_motivasi), urgent: false });
  if (record.jawaban_keselamatan !== null) lines.push({ line: text.safety(record.jawaban_keselamatan), urgent: isCriticalAnswer(record.jawaban_keselamatan) });
  if (lines.length === 0) return null;
  return (
    <ul class="measure-lines">
      {lines.map(({ line, urgent }) => (
        <li key={line} class={urgent ? "measure-urgent" : undefined}>
          {line}
        </li>
      ))}
    </ul>
  );
}
