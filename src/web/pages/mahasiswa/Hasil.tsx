import type { PageProps } from "../../types";
import { api } from "../../api";
import { ErrorNotice, LevelTag, Loading, Notice, Page } from "../../components/ui";
import { formatDate, formatNumber } from "../../format";
import { useResource } from "../../hooks";
import { scales } from "../../levels";
import { pathOf } from "../../routes";
import { student } from "../../strings";
import { ContactCard } from "./contact";
import { HelpCard, ReachNotice, SafetyHelp } from "./help";
import { latestResult, NotScreenedYet } from "./shared";

const text = student.hasil;

/** The result and its detailed suggestions together: the suggestions follow from the levels. */
async function loadResult(user: PageProps["user"]) {
  const record = await latestResult(user);
  if (!record) return null;
  const query = new URLSearchParams({ stress: record.tingkat_stres, motivation: record.tingkat_motivasi });
  const { suggestions } = await api.get<{ suggestions: string[] }>(`/api/mahasiswa/suggestions/detail?${query}`);
  return { record, suggestions };
}

/**
 * Hasil: the latest screening's levels, scores and suggestions, that it is no diagnosis,
 * whether a person was alerted, and where to find help (first, on a Tinggi stress result).
 */
export function Hasil({ user, search }: PageProps) {
  const result = useResource(() => loadResult(user), [user.NIM]);
  return (
    <Page title={student.nav.hasil}>
      {result.error ? (
        <ErrorNotice error={result.error} onRetry={result.reload} />
      ) : result.data === undefined ? (
        <Loading />
      ) : result.data === null ? (
        <section aria-labelledby="hasil-kosong">
          <h2 id="hasil-kosong">{text.emptyTitle}</h2>
          <NotScreenedYet />
        </section>
      ) : (
        <>
          {/* The safety question answered 3 or more: whom to call today, before anything else (decisions §20). */}
          {result.data.record.bantuan_segera && <SafetyHelp contact={result.data.record.bantuan_segera} />}
          {result.data.record.bantuan_segera && <HelpCard urgent={false} />}
          {search.has("baru") && (
            <Notice kind="success">
              <p>{text.submitted}</p>
            </Notice>
          )}
          {/* A Tinggi stress result: where to get help first, above everything else (decisions §13). */}
          {result.data.record.tingkat_stres === "Tinggi" && !result.data.record.bantuan_segera && <HelpCard urgent />}
          <ReachNotice result={result.data.record} />
          <ContactCard user={user} headingId="hasil-kontak" />
          <p>{text.date(formatDate(result.data.record.tanggal_skrining))}</p>
          <p class="disclaimer">{text.notDiagnosis}</p>
          <div class="cards">
            <section class="card tile" aria-labelledby="hasil-stres">
              <h2 id="hasil-stres">{text.stressTitle}</h2>
              <p class="level-large">
                <LevelTag measure="stres" level={result.data.record.tingkat_stres} />
              </p>
              <p>{text.stressScore(formatNumber(result.data.record.score_stress), formatNumber(scales.stres.min), formatNumber(scales.stres.max))}</p>
            </section>
            <section class="card tile" aria-labelledby="hasil-motivasi">
              <h2 id="hasil-motivasi">{text.motivationTitle}</h2>
              <p class="level-large">
                <LevelTag measure="motivasi" level={result.data.record.tingkat_motivasi} />
              </p>
              <p>{text.motivationScore(formatNumber(result.data.record.score_sdi), formatNumber(scales.motivasi.min), formatNumber(scales.motivasi.max))}</p>
            </section>
          </div>
          <section aria-labelledby="hasil-saran">
            <h2 id="hasil-saran">{text.suggestionsTitle}</h2>
            <p>{result.data.record.saran}</p>
            <ul class="suggestions">
              {result.data.suggestions.map((suggestion) => (
                <li key={suggestion}>{suggestion}</li>
              ))}
            </ul>
          </section>
          <p>
            <a href={pathOf("riwayat")}>{text.toHistory}</a>
          </p>
        </>
      )}
      {result.data?.record.tingkat_stres !== "Tinggi" && !result.data?.record.bantuan_segera && <HelpCard urgent={false} />}
    </Page>
  );
}
