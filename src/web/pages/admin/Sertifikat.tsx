import { api } from "../../api";
import { Button, Loading, Notice } from "../../components/ui";
import { formatDateTime } from "../../format";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import type { PageProps } from "../../types";
import { installSteps, stepSegments } from "../../../tls/install-steps";
import { ResourceError } from "../dosen/shared";
import { useAction, OutcomeNotice } from "../../components/outcome";
import { CommandHint, ConsolePage, type CertificateAnswer } from "./shared";

const text = admin.sertifikat;

/** A step of the install guide, its code and strong pieces marked up (src/tls/install-steps.ts). */
function Step(props: { step: string; plainAddress: string }) {
  return (
    <>
      {stepSegments(props.step, props.plainAddress).map((segment, index) =>
        segment.kind === "code" ? <code key={index}>{segment.text}</code> : segment.kind === "strong" ? <strong key={index}>{segment.text}</strong> : segment.text,
      )}
    </>
  );
}

/** Addresses as links, one a line. */
function Addresses(props: { addresses: string[] }) {
  return (
    <ul>
      {props.addresses.map((address) => (
        <li key={address}>
          <a href={address}>{address}</a>
        </li>
      ))}
    </ul>
  );
}

/**
 * Sertifikat (decisions §18): the certificate the running server serves, what is wrong
 * with it, the HTTPS address as a QR code for phones to scan off this screen, the address
 * of the certificate page, the install steps per platform (the certificate page's own), and
 * a renewal from the local CA now.
 */
export function Sertifikat(_props: PageProps) {
  const certificate = useResource(() => api.get<CertificateAnswer>("/api/admin/sertifikat"));
  const { busy, outcome, run } = useAction();
  const data = certificate.data;
  const renew = () => run(() => api.post<{ message: string }>("/api/admin/sertifikat/perbarui").then((answer) => answer.message)).finally(certificate.reload);
  const plainAddress = data?.halaman_sertifikat[0]?.replace(/\/$/, "") ?? "http://<alamat PC>:5000";

  return (
    <ConsolePage current="adminSertifikat" intro={text.intro}>
      <ResourceError resource={certificate} />
      {!data ? (
        certificate.loading && <Loading />
      ) : !data.https ? (
        <Notice kind="warning">
          <p>{text.plain}</p>
          {data.peringatan.map((warning) => (
            <p key={warning}>{warning}</p>
          ))}
          <p>
            {text.plainHint} <code>skrining tls init</code>
          </p>
        </Notice>
      ) : (
        <>
          {data.peringatan.length > 0 && (
            <Notice kind="warning">
              <p>
                <strong>{text.warnings}</strong>
              </p>
              <ul>
                {data.peringatan.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            </Notice>
          )}
          <h2>{text.facts}</h2>
          <dl class="facts">
            <div class="facts-wide">
              <dt>{data.ca_lokal ? text.fingerprint : text.fingerprintOwn}</dt>
              <dd>
                <code class="fingerprint">{data.sidik_jari}</code>
              </dd>
            </div>
            <div>
              <dt>{text.until}</dt>
              <dd>
                {formatDateTime(data.berakhir!)} ({text.daysLeft(data.hari_tersisa!)})
              </dd>
            </div>
            <div>
              <dt>{text.names}</dt>
              <dd>{data.nama.join(", ")}</dd>
            </div>
            <div>
              <dt>{text.addresses}</dt>
              <dd>{data.alamat.join(", ")}</dd>
            </div>
          </dl>
          <p class="aside">{data.dapat_diperbarui ? text.renewal : text.renewalGiven}</p>
          <OutcomeNotice outcome={outcome} focus={false} />
          {data.dapat_diperbarui && (
            <div class="button-row">
              <Button busy={busy} onClick={() => void renew()}>
                {busy ? text.renewBusy : text.renew}
              </Button>
            </div>
          )}

          <h2>{text.open}</h2>
          {data.qr && data.alamat_https[0] && (
            <figure class="qr-figure">
              <svg class="qr" viewBox={`0 0 ${data.qr.size} ${data.qr.size}`} role="img" aria-label={text.qr(data.alamat_https[0])} shape-rendering="crispEdges">
                <rect width={data.qr.size} height={data.qr.size} fill="#fff" />
                <path d={data.qr.path} fill="#000" />
              </svg>
              <figcaption>{text.openHint}</figcaption>
            </figure>
          )}
          <Addresses addresses={data.alamat_https} />
          <p>{text.page}:</p>
          <Addresses addresses={data.halaman_sertifikat} />

          {data.ca_lokal && (
            <>
              <h2>{text.steps}</h2>
              {installSteps.map((platform) => (
                <details key={platform.id}>
                  <summary>{platform.platform}</summary>
                  <ol>
                    {platform.steps.map((step, index) => (
                      <li key={index}>
                        <Step step={step} plainAddress={plainAddress} />
                      </li>
                    ))}
                  </ol>
                  {platform.note && (
                    <p class="aside">
                      <Step step={platform.note} plainAddress={plainAddress} />
                    </p>
                  )}
                </details>
              ))}
            </>
          )}
        </>
      )}
      <CommandHint command="skrining tls status" />
    </ConsolePage>
  );
}
