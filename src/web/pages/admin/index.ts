// The admin console's pages, by the name of their route (routes.ts): for the role admin,
// served only where `serve --admin-web` allows. A chunk of its own, loaded by app.tsx when
// an admin opens the console (its stylesheet is in the one stylesheet: main.tsx).
import type { FunctionComponent } from "preact";
import type { PageName } from "../../routes";
import type { PageProps } from "../../types";
import { Akun } from "./Akun";
import { Cadangan } from "./Cadangan";
import { DataPribadi } from "./DataPribadi";
import { JejakAudit } from "./JejakAudit";
import { Model } from "./Model";
import { Sertifikat } from "./Sertifikat";
import { StatistikFakultas } from "./StatistikFakultas";
import { Teks } from "./Teks";

export const adminPages: Partial<Record<PageName, FunctionComponent<PageProps>>> = {
  adminAkun: Akun,
  adminCadangan: Cadangan,
  adminSertifikat: Sertifikat,
  adminJejak: JejakAudit,
  adminDataPribadi: DataPribadi,
  adminModel: Model,
  adminTeks: Teks,
  adminStatistik: StatistikFakultas,
};
