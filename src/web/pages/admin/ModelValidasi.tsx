import { useState } from "preact/hooks";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { CalibrationChart, RateBars } from "../../components/validation-charts";
import { Loading, Notice } from "../../components/ui";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import { ResourceError } from "../dosen/shared";
import { CommandHint, SelectField, type ValidationAnswer } from "./shared";

// Decisions §20 on the console's Model page: `skrining model validate` and `stats
// reliability` as a person reads them — the caveat first, then per type a chart of the two
// rates per level and the tables, and the model's calibration.

const text = admin.validasi;
type TypeValidation = ValidationAnswer["jenis"][number];
type LevelRow = TypeValidation["aturan_ambang"]["per_tingkat"][number];
type CalibrationRow = NonNullable<NonNullable<TypeValidation["model"]>["kalibrasi"]>[number];

const percent = new Intl.NumberFormat("id-ID", { style: "percent", maximumFractionDigits: 0 });
const decimal = (value: number, digits: number) => value.toLocaleString("id-ID", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const rate = (value: number | null) => (value === null ? "–" : percent.format(value));

export function ModelValidasi() {
  const report = useResource(() => api.get<ValidationAnswer>("/api/admin/model/validasi"));
  const data = report.data;
  return (
    <section aria-labelledby="validasi-judul">
      <h2 id="validasi-judul">{text.heading}</h2>
      <p class="aside">{text.intro}</p>
      <ResourceError resource={report} />
      {!data ? (
        report.loading && <Loading />
      ) : (
        <>
          <Notice kind="warning">
            <p>
              <strong>{text.caveatTitle}:</strong> {data.catatan_bias_seleksi}
            </p>
          </Notice>
          <p>
            <strong>{text.reliability}:</strong>{" "}
            {text.reliabilityLine(decimal(data.reliabilitas.alfa, 2), decimal(data.reliabilitas.simpangan_baku, 1), decimal(data.reliabilitas.perubahan_andal_terkecil, 1))}{" "}
            {data.reliabilitas.alasan_nilai_tetap ? text.reliabilityFixed[data.reliabilitas.alasan_nilai_tetap] : text.reliabilityComputed(data.reliabilitas.n)}
          </p>
          {data.jenis.map((type) => (
            <TypeResult key={type.jenis} result={type} />
          ))}
        </>
      )}
      <CommandHint command="skrining model validate --format csv --out validasi.csv; skrining stats reliability" />
    </section>
  );
}

function levelTable(caption: string, rows: readonly LevelRow[]) {
  const columns = text.columns;
  return (
    <DataTable
      caption={caption}
      columns={[columns.level, columns.positive, columns.tp, columns.fp, columns.fn, columns.tn, columns.sensitivity, columns.specificity, columns.ppv, columns.npv]}
      numeric={[false, false, true, true, true, true, true, true, true, true]}
      rows={rows.map((row) => [row.tingkat, row.positif_bila, String(row.tp), String(row.fp), String(row.fn), String(row.tn), rate(row.sensitivitas), rate(row.spesifisitas), rate(row.ppv), rate(row.npv)])}
    />
  );
}

function TypeResult(props: { result: TypeValidation }) {
  const { result } = props;
  const typeName = text.types[result.jenis] ?? result.jenis;
  const model = result.model;
  const sources: [string, readonly LevelRow[]][] = [[text.rules, result.aturan_ambang.per_tingkat], ...(model ? [[text.modelShort(model.id), model.per_tingkat] as [string, readonly LevelRow[]]] : [])];
  const rows = result.aturan_ambang.per_tingkat.flatMap((_, index) =>
    sources.map(([source, levels]) => ({ label: text.chartRow(levels[index]!.tingkat, source), rates: [levels[index]!.sensitivitas, levels[index]!.spesifisitas] })),
  );
  const headingId = `validasi-${result.jenis}`;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{typeName}</h3>
      <p>{text.outcomes(result.n, result.ya, result.tidak)}</p>
      {[...result.keterangan, ...(model?.keterangan ?? [])].map((note) => (
        <p key={note} class="aside">
          {note}
        </p>
      ))}
      <RateBars
        title={text.chart(typeName)}
        series={[
          { label: text.sensitivity, tone: "tone-sensitivity" },
          { label: text.specificity, tone: "tone-specificity" },
        ]}
        rows={rows}
        format={(value) => percent.format(value)}
      />
      {levelTable(text.table(text.rules, typeName), result.aturan_ambang.per_tingkat)}
      {model && levelTable(text.table(text.model(model.id, model.algoritma, model.n), typeName), model.per_tingkat)}
      {model?.kalibrasi && <Calibration rows={model.kalibrasi} />}
    </section>
  );
}

/** The model's calibration at a level of the admin's choosing (the strictest first), with each level's Brier score. */
function Calibration(props: { rows: readonly CalibrationRow[] }) {
  const [level, setLevel] = useState(props.rows.at(-1)!.tingkat);
  const shown = props.rows.find((row) => row.tingkat === level) ?? props.rows.at(-1)!;
  const bins = shown.bin.filter((bin) => bin.n > 0);
  const columns = text.calibrationColumns;
  return (
    <div class="calibration">
      <h4>{text.calibration}</h4>
      <p class="aside">{text.calibrationIntro}</p>
      <ul>
        {props.rows.map((row) => (
          <li key={row.tingkat}>{text.brier(row.tingkat, row.brier === null ? "–" : decimal(row.brier, 3), row.n)}</li>
        ))}
      </ul>
      <SelectField label={text.calibrationLevel} value={shown.tingkat} options={Object.fromEntries(props.rows.map((row) => [row.tingkat, row.tingkat]))} onChange={(value) => setLevel(value as typeof level)} />
      <CalibrationChart
        title={text.calibrationChart(shown.tingkat)}
        points={bins.map((bin) => ({ forecast: bin.rata_rata_prediksi!, observed: bin.proporsi_ya!, n: bin.n }))}
        axisForecast={text.axisForecast}
        axisObserved={text.axisObserved}
        diagonal={text.diagonal}
      />
      <DataTable
        caption={text.calibrationTable(shown.tingkat)}
        columns={[columns.bin, columns.n, columns.forecast, columns.observed]}
        numeric={[false, true, true, true]}
        rows={bins.map((bin) => [`${percent.format(bin.dari)}–${percent.format(bin.sampai)}`, String(bin.n), rate(bin.rata_rata_prediksi), rate(bin.proporsi_ya)])}
      />
    </div>
  );
}
