import type { PageProps } from "../../app";
import { Page } from "../../components/ui";
import { staff } from "../../strings";

/** Mahasiswa bimbingan: the advisees, searchable, by page, by risk. */
export function Bimbingan(props: PageProps) {
  return (
    <Page title={staff.nav.bimbingan}>
      <p>{props.user.nama}</p>
    </Page>
  );
}
