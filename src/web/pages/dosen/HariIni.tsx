import type { ComponentChildren } from "preact";
import type { TindakLanjutCase, PageProps } from "../../types";
import { ErrorNotice, LevelTag, Loading, Page } from "../../components/ui";
import { formatDate, formatDateTime } from "../../format";
import { pathOf } from "../../routes";
import { errors, staff } from "../../strings";
import { useToday, type Today } from "../../staff-today";
import { ApiError } from "../../api";
import { LecturersOnly, studentName, withQuery } from "./shared";
import { CaseBadges } from "./tindak-lanjut-status";

const text = staff.today;
/** Each group shows its first few on the page, so that every group starts within a phone's first screen; its link leads to all. */
const shownPerGroup = 3;

/**
 * Hari ini (decisions §19): who needs the lecturer today, in the order to act on it: the
 * cases waiting for them (late first), closings of their advisees' cases, the students who
 * replied, then the advisees at risk. Each group is a short list of links with its count.
 */
export function HariIni(props: PageProps) {
  const today = useToday(props.user.role === "dosen" ? props.user.Id_User : null, "page");
  if (props.user.role !== "dosen") return <LecturersOnly title={text.title} />;
  return (
    <Page title={text.title}>
      {today === undefined ? <Loading /> : today === null ? <ErrorNotice error={new ApiError(0, errors.offline)} /> : <Groups today={today} />}
    </Page>
  );
}

function Groups(props: { today: Today }) {
  const { today } = props;
  const { jumlah } = today;
  if (jumlah.kasus + jumlah.baru_ditutup + jumlah.balasan + jumlah.berisiko === 0) return <p>{text.nothing}</p>;
  return (
    <>
      {jumlah.kasus > 0 && (
        <Group id="hari-ini-kasus" title={text.heading(text.waiting, jumlah.kasus)} more={{ href: withQuery(pathOf("tindakLanjut"), { status: "terbuka" }), label: text.allCases(jumlah.kasus) }} total={jumlah.kasus}>
          {today.kasus.slice(0, shownPerGroup).map((kasus) => (
            <CaseItem key={kasus.id} kasus={kasus} />
          ))}
        </Group>
      )}
      {jumlah.baru_ditutup > 0 && (
        <Group id="hari-ini-ditutup" title={text.heading(text.closed, jumlah.baru_ditutup)} total={jumlah.baru_ditutup} more={{ href: pathOf("tindakLanjut"), label: staff.nav.tindakLanjut }}>
          {today.baru_ditutup.slice(0, shownPerGroup).map((kasus) => (
            <CaseItem key={kasus.id} kasus={kasus} />
          ))}
        </Group>
      )}
      {jumlah.balasan > 0 && (
        <Group id="hari-ini-balasan" title={text.heading(text.replies, jumlah.balasan)} total={jumlah.balasan} more={{ href: withQuery(pathOf("bimbingan"), { balasan: "1" }), label: text.allReplies(jumlah.balasan) }}>
          {today.balasan.slice(0, shownPerGroup).map((reply) => (
            <li key={reply.NIM} class="today-item">
              <a href={replyHref(reply)}>{studentName(reply)}</a>
              <span class="student-meta">
                {text.replied(reply.balasan_baru, formatDateTime(reply.tanggal_balasan))}
                {!reply.dapat_dibuka && ` · ${text.formerStudent}`}
              </span>
            </li>
          ))}
        </Group>
      )}
      {jumlah.berisiko > 0 && (
        <Group id="hari-ini-berisiko" title={text.heading(text.atRisk, jumlah.berisiko)} total={jumlah.berisiko} more={{ href: withQuery(pathOf("bimbingan"), { sort: "risk" }), label: text.allAtRisk(jumlah.berisiko) }}>
          {today.berisiko.slice(0, shownPerGroup).map((student) => (
            <li key={student.NIM} class="today-item">
              <a href={pathOf("detailMahasiswa", { nim: student.NIM })}>{studentName(student)}</a>
              <span class="badge-row">
                <span class="badge badge-warning">{staff.list.attention}</span>
                {student.early_warning && <span class="badge badge-warning">{staff.list.earlyWarning}</span>}
                {student.stres_sangat_tinggi && <span class="badge badge-danger">{staff.list.veryHighStress}</span>}
              </span>
              <span class="student-meta">
                <LevelTag measure="stres" level={student.tingkat_stres} label={staff.list.stress} /> {text.screened(formatDate(student.tanggal_skrining))}
                {student.id_tindak_lanjut !== null && ` · ${text.hasCase}`}
              </span>
            </li>
          ))}
        </Group>
      )}
    </>
  );
}

/** A student who replied: their page when the lecturer may open it, else the case they handled (where the conversation is), else the page that says the student moved. */
function replyHref(reply: Today["balasan"][number]): string {
  if (!reply.dapat_dibuka && reply.id_tindak_lanjut !== null) return pathOf("detailTindakLanjut", { id: String(reply.id_tindak_lanjut) });
  return pathOf("detailMahasiswa", { nim: reply.NIM });
}

function Group(props: { id: string; title: string; total: number; more: { href: string; label: string }; children: ComponentChildren }) {
  return (
    <section class="today-group" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <ul class="today-list">{props.children}</ul>
      {props.total > shownPerGroup && (
        <p class="today-more">
          <a href={props.more.href}>{props.more.label}</a>
        </p>
      )}
    </section>
  );
}

/** A case: the student, what makes it wait (late, new, a request, a closing), since when. */
function CaseItem(props: { kasus: TindakLanjutCase }) {
  const { kasus } = props;
  return (
    <li class="today-item">
      <a href={pathOf("detailTindakLanjut", { id: String(kasus.id) })}>{studentName(kasus)}</a>
      <CaseBadges kasus={kasus} />
      <span class="student-meta">{kasus.status === "selesai" ? staff.followUp.closed(formatDate(kasus.ditutup_pada ?? kasus.diperbarui_pada)) : text.openedDaysAgo(kasus.hari_terbuka)}</span>
    </li>
  );
}
