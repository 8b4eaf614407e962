import { useState } from "preact/hooks";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { Field, Loading } from "../../components/ui";
import { formatNumber } from "../../format";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import type { PageProps } from "../../types";
import { ResourceError, withQuery } from "../dosen/shared";
import { LaporanMingguan } from "./LaporanMingguan";
import { CommandHint, ConsolePage, DownloadButton, SelectField, type FacultyStatistics } from "./shared";

const text = admin.statistik;

/**
 * Statistik fakultas: each lecturer's advisees by their latest screening with the
 * follow-up figures (the rows of `stats export`), and that export as a CSV for Excel or
 * LibreOffice: every lecturer, or one lecturer's advisees.
 */
export function StatistikFakultas(_props: PageProps) {
  const statistics = useResource(() => api.get<FacultyStatistics>("/api/admin/statistik"));
  const data = statistics.data;
  const [dialect, setDialect] = useState<string | null>(null);
  const [scope, setScope] = useState<"all" | "students">("all");
  const [nip, setNip] = useState("");
  const chosenDialect = dialect ?? data?.csv_bawaan ?? "excel-id";
  const chosenNip = nip || data?.per_dosen[0]?.NIP || "";
  const levels = (counts: { Rendah: number; Sedang: number; Tinggi: number }) => `${formatNumber(counts.Rendah)} / ${formatNumber(counts.Sedang)} / ${formatNumber(counts.Tinggi)}`;
  const columns = text.columns;

  return (
    <ConsolePage current="adminStatistik" intro={text.intro}>
      <ResourceError resource={statistics} />
      {!data ? (
        statistics.loading && <Loading />
      ) : data.per_dosen.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <>
          <DataTable
            caption={text.table}
            columns={[columns.lecturer, columns.total, columns.screened, columns.stress, columns.motivation, columns.open, columns.fresh, columns.late, columns.old, columns.median]}
            numeric={[false, true, true, true, true, true, true, true, true, true]}
            rows={data.per_dosen.map((row) => [
              `${row.nama_dosen} (${row.NIP})`,
              formatNumber(row.total_mahasiswa),
              formatNumber(row.sudah_skrining),
              levels(row.stress_dist),
              levels(row.motivasi_dist),
              formatNumber(row.terbuka),
              formatNumber(row.baru),
              formatNumber(row.terlambat),
              formatNumber(row.lebih_dari_7_hari),
              row.median_hari_ke_kontak_pertama === null ? "–" : formatNumber(row.median_hari_ke_kontak_pertama),
            ])}
          />
          <section aria-labelledby="statistik-unduh">
            <h2 id="statistik-unduh">{text.downloadHeading}</h2>
            <div class="form console-form">
              <SelectField label={text.dialect} value={chosenDialect} options={text.dialects} onChange={setDialect} />
              <SelectField
                label={text.scope}
                value={scope}
                options={{ all: text.allLecturers, students: text.lecturerStudents }}
                onChange={(chosen) => setScope(chosen === "students" ? "students" : "all")}
              />
              {scope === "students" && (
                <Field label={text.lecturer}>
                  {({ id }) => (
                    <select id={id} value={chosenNip} onChange={(event) => setNip(event.currentTarget.value)}>
                      {data.per_dosen.map((row) => (
                        <option key={row.NIP} value={row.NIP}>
                          {row.nama_dosen}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              )}
              <p class="aside" id="statistik-catatan">
                {text.auditNote}
              </p>
              <DownloadButton
                variant="primary"
                describedBy="statistik-catatan"
                label={text.download}
                path={withQuery("/api/admin/statistik/ekspor", scope === "students" ? { csv: chosenDialect, nip: chosenNip, per_mahasiswa: "ya" } : { csv: chosenDialect })}
              />
            </div>
          </section>
        </>
      )}
      <CommandHint command="skrining stats export --out statistik.csv" />
      <LaporanMingguan dialect={chosenDialect} />
    </ConsolePage>
  );
}
