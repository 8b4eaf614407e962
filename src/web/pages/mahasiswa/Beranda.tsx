import type { PageProps } from "../../app";
import { Page } from "../../components/ui";
import { student } from "../../strings";

/** Beranda: whether the questionnaire can be filled now, the latest result, today's mood. */
export function Beranda(props: PageProps) {
  return (
    <Page title={student.nav.beranda}>
      <p>{props.user.nama}</p>
    </Page>
  );
}
