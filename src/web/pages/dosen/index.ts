// The advisor's (and the admin's) pages, by the name of their route (routes.ts).
import type { FunctionComponent } from "preact";
import type { PageProps } from "../../types";
import type { PageName } from "../../routes";
import { Bimbingan } from "./Bimbingan";
import { HariIni } from "./HariIni";
import { ProfilDosen } from "./ProfilDosen";
import { DetailMahasiswa } from "./DetailMahasiswa";
import { DaftarTindakLanjut } from "./DaftarTindakLanjut";
import { DetailTindakLanjut } from "./DetailTindakLanjut";
import { Statistik } from "./Statistik";
import "./dosen.css";

export const staffPages: Partial<Record<PageName, FunctionComponent<PageProps>>> = {
  hariIni: HariIni,
  bimbingan: Bimbingan,
  profilDosen: ProfilDosen,
  detailMahasiswa: DetailMahasiswa,
  tindakLanjut: DaftarTindakLanjut,
  detailTindakLanjut: DetailTindakLanjut,
  statistik: Statistik,
};
