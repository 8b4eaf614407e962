// The student's advisor by name and number, and a request to be contacted with where it
// stands (decisions §19, /api/mahasiswa/minta-kontak): what Beranda and Hasil show, and the
// advisor's name the Mood and Jurnal pages say who reads them with.
import type { Static } from "elysia";
import { useState } from "preact/hooks";
import { api } from "../../api";
import { Button, ErrorNotice, Field, Loading } from "../../components/ui";
import { formatDateTime } from "../../format";
import { useResource } from "../../hooks";
import { student } from "../../strings";
import type { User } from "../../types";
import type { MintaKontakSent, MintaKontakState } from "../../../modules/minta-kontak/model";
import { dialled } from "../../../konten/help-phone";
import { requestMessageMaxLength as messageMax } from "../../../modules/tindak-lanjut/moves";
import { OutcomeNotice, useAction } from "../../components/outcome";
import { characters } from "./shared";

const text = student.kontak;

export type ContactState = Static<typeof MintaKontakState>;

/** The student's advisor and latest request, loaded once per page. */
export const useContactState = (user: User) => useResource(() => api.get<ContactState>("/api/mahasiswa/minta-kontak"), [user.NIM]);

/** "Dosen wali Anda": the name, and the number as a link that calls. */
export function AdvisorLine(props: { state: ContactState }) {
  const advisor = props.state.dosen_wali;
  if (!advisor) return <p>{text.noAdvisor}</p>;
  return (
    <p class="advisor-line">
      <span>
        {text.advisorTitle}: <strong>{advisor.nama}</strong>
      </span>
      {advisor.telepon ? (
        <a class="button button-secondary" href={`tel:${dialled(advisor.telepon)}`}>
          {text.call(advisor.telepon)}
        </a>
      ) : (
        <span class="hint">{text.noPhone}</span>
      )}
    </p>
  );
}

/** The card: the advisor, where the latest request stands, and the form while a new one may be sent. */
export function ContactCard(props: { user: User; headingId: string }) {
  const state = useContactState(props.user);
  const [sent, setSent] = useState<ContactState | null>(null);
  const current = sent ?? state.data;
  return (
    <section class="card tile card-wide contact-card" aria-labelledby={props.headingId}>
      <h2 id={props.headingId}>{text.title}</h2>
      {state.error ? (
        <ErrorNotice error={state.error} onRetry={state.reload} />
      ) : !current ? (
        <Loading />
      ) : (
        <>
          <AdvisorLine state={current} />
          <RequestState state={current} />
          {current.boleh_minta_lagi_pada === null ? (
            <RequestForm onSent={setSent} />
          ) : (
            <p class="hint">{text.againAt(formatDateTime(current.boleh_minta_lagi_pada))}</p>
          )}
        </>
      )}
    </section>
  );
}

function RequestState(props: { state: ContactState }) {
  const latest = props.state.permintaan_terakhir;
  if (!latest) return <p>{text.intro}</p>;
  return (
    <div class="request-state" role="status">
      <p>{text.sentAt(formatDateTime(latest.waktu), text.recipient[latest.penerima] ?? "")}</p>
      <p>
        <strong>{text.status[latest.status]}</strong>
      </p>
    </div>
  );
}

function RequestForm(props: { onSent: (state: ContactState) => void }) {
  const [message, setMessage] = useState("");
  const action = useAction();
  const length = characters(message.trim());
  const tooLong = length > messageMax;

  function submit(event: Event) {
    event.preventDefault();
    if (tooLong) return;
    void action.run(async () => {
      const answer = await api.post<Static<typeof MintaKontakSent>>("/api/mahasiswa/minta-kontak", { pesan: message });
      setMessage("");
      const { message: said, ...state } = answer;
      props.onSent(state);
      return said;
    });
  }

  return (
    <form class="form" onSubmit={submit} noValidate>
      <Field label={text.message} hint={text.messageHint(student.charCount(length, messageMax))} error={tooLong ? student.tooLong(messageMax) : null}>
        {({ id, describedBy, invalid }) => (
          <textarea id={id} name="pesan" rows={3} value={message} aria-describedby={describedBy} aria-invalid={invalid || undefined} onInput={(event) => setMessage(event.currentTarget.value)} />
        )}
      </Field>
      <OutcomeNotice outcome={action.outcome} />
      <div class="button-row">
        <Button type="submit" busy={action.busy}>
          {action.busy ? text.sending : text.send}
        </Button>
      </div>
    </form>
  );
}
