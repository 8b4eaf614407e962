// The student's pages, by the name of their route (routes.ts), and their stylesheet.
import type { FunctionComponent } from "preact";
import type { PageProps } from "../../types";
import type { PageName } from "../../routes";
import { Beranda } from "./Beranda";
import { CatatanPage } from "./Catatan";
import { DataSaya } from "./DataSaya";
import { Hasil } from "./Hasil";
import { Jurnal } from "./Jurnal";
import { Kuesioner } from "./Kuesioner";
import { MoodPage } from "./Mood";
import { Profil } from "./Profil";
import { Riwayat } from "./Riwayat";
import "./mahasiswa.css";

export const studentPages: Partial<Record<PageName, FunctionComponent<PageProps>>> = {
  beranda: Beranda,
  kuesioner: Kuesioner,
  hasil: Hasil,
  riwayat: Riwayat,
  mood: MoodPage,
  jurnal: Jurnal,
  catatan: CatatanPage,
  profil: Profil,
  dataSaya: DataSaya,
};
