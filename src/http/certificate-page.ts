import { qrDrawing, qrSvg } from "../qr-code";
import { authorityFileName, installSteps, stepSegments } from "../tls/install-steps";

// The certificate page (decisions §18): what the plain port shows on every page path once
// skrining serves HTTPS. Rendered here, without script, for a phone at 360 px: what the
// certificate is, its fingerprint, the download, the steps per platform (folded, <details>),
// and the HTTPS address as a link and a QR code.

/** What the page says of this server. */
export interface CertificatePageView {
  /** `https://192.168.1.10:5443/`: where skrining is, from the name or address the visitor used. */
  httpsAddress: string;
  /** `http://192.168.1.10:5000`: this port, for the commands that download the CA. */
  plainAddress: string;
  /** SHA-256 of the CA certificate (or of the server's own when another CA signed it). */
  fingerprint: string;
  /** Whether this server offers a local CA to install (/ca.crt). */
  hasAuthority: boolean;
}

export const certificateStylesheetPath = "/sertifikat.css";

const escape = (text: string) => text.replace(/[&"<>']/g, (character) => `&#${character.charCodeAt(0)};`);

function stepHtml(step: string, plainAddress: string): string {
  return stepSegments(step, plainAddress)
    .map((segment) => (segment.kind === "code" ? `<code>${escape(segment.text)}</code>` : segment.kind === "strong" ? `<strong>${escape(segment.text)}</strong>` : escape(segment.text)))
    .join("");
}

export function certificatePage(view: CertificatePageView): string {
  const https = escape(view.httpsAddress);
  const platforms = installSteps
    .map(
      (platform) =>
        `<details id="${platform.id}"><summary>${escape(platform.platform)}</summary><ol>${platform.steps.map((step) => `<li>${stepHtml(step, view.plainAddress)}</li>`).join("")}</ol>${
          platform.note ? `<p class="note">${stepHtml(platform.note, view.plainAddress)}</p>` : ""
        }</details>`,
    )
    .join("\n");
  const install = view.hasAuthority
    ? `<section aria-labelledby="unduh"><h2 id="unduh">1. Pasang sertifikat CA fakultas</h2>
<p>Sekali saja per perangkat. Sertifikat ini dibuat oleh skrining di PC kampus; dengannya perangkat Anda dapat memastikan bahwa yang menjawab di alamat HTTPS memang skrining fakultas.</p>
<p><a class="button" href="/ca.crt" download="${authorityFileName}">Unduh sertifikat (${authorityFileName})</a></p>
<p>Sidik jari SHA-256:</p>
<p class="fingerprint"><code>${escape(view.fingerprint)}</code></p>
<p class="note">Halaman ini sendiri belum terenkripsi. Samakan sidik jari di atas dengan yang diumumkan fakultas (papan pengumuman, admin skrining) dan dengan yang ditampilkan perangkat Anda saat memasang; bila berbeda, jangan pasang dan beri tahu admin.</p>
<h3>Langkah per perangkat</h3>
${platforms}
</section>`
    : `<section aria-labelledby="unduh"><h2 id="unduh">1. Sertifikat</h2>
<p>Sertifikat server ini diterbitkan oleh otoritas sertifikat fakultas atau kampus, bukan oleh skrining. Perangkat yang sudah mempercayainya tidak perlu memasang apa pun; bila peramban memperingatkan, hubungi admin TI.</p>
<p>Sidik jari SHA-256 sertifikat server:</p>
<p class="fingerprint"><code>${escape(view.fingerprint)}</code></p>
</section>`;
  return `<!doctype html>
<html lang="id">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#1b6e53">
<title>Pasang sertifikat · skrining</title>
<link rel="stylesheet" href="${certificateStylesheetPath}">
</head>
<body>
<header><p class="brand">skrining</p></header>
<main>
<h1>Buka skrining lewat HTTPS</h1>
<p>skrining memakai sambungan terenkripsi (HTTPS) di jaringan kampus, agar password dan jawaban Anda tidak dapat dibaca orang lain di Wi-Fi yang sama. Alamat tanpa enkripsi ini hanya menampilkan halaman ini.</p>
${install}
<section aria-labelledby="buka"><h2 id="buka">2. Buka alamat HTTPS</h2>
<p><a class="button" href="${https}">Buka ${https}</a></p>
<figure>${qrSvg(qrDrawing(view.httpsAddress), `Kode QR alamat ${view.httpsAddress}`)}<figcaption>Pindai dengan kamera ponsel untuk membuka ${https}</figcaption></figure>
<p class="note">Bila peramban menampilkan "Koneksi Anda tidak pribadi" atau "Sambungan ini tidak privat", sertifikat belum terpasang dengan benar: jangan lewati peringatan itu, ulangi langkah di atas.</p>
</section>
</main>
</body>
</html>
`;
}

/**
 * The page's stylesheet (the app's colours; system fonts only; a phone first). Its own,
 * not the app's built one: the plain port answers this page from a fresh clone too, before
 * the web interface is built.
 */
export const certificateStylesheet = `:root {
  color-scheme: light;
  --ink: #1c2421;
  --ink-soft: #4a5651;
  --paper: #f6f8f7;
  --card: #ffffff;
  --line: #c9d3cf;
  --brand: #1b6e53;
  --brand-dark: #12503c;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
  line-height: 1.5;
  color: var(--ink);
  background: var(--paper);
}
* { box-sizing: border-box; }
body { margin: 0; overflow-wrap: anywhere; }
header { background: var(--brand-dark); color: #fff; padding: 0.5rem 1rem; }
.brand { margin: 0; font-weight: 700; }
main { max-width: 40rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 0.5rem; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0 1rem 1rem; margin: 1rem 0; }
a { color: var(--brand-dark); }
.button { display: inline-flex; align-items: center; justify-content: center; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: 8px; background: var(--brand); color: #fff; font-weight: 600; text-decoration: none; text-align: center; }
.button:focus-visible, summary:focus-visible { outline: 3px solid #b34700; outline-offset: 2px; }
.fingerprint code { display: block; font-size: 0.95rem; word-break: break-all; background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 0.5rem; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
.note { color: var(--ink-soft); font-size: 0.95rem; }
details { border-top: 1px solid var(--line); }
summary { min-height: 2.75rem; padding: 0.6rem 0; font-weight: 600; cursor: pointer; }
details ol { padding-left: 1.25rem; margin: 0 0 0.5rem; }
details li { margin-bottom: 0.5rem; }
figure { margin: 1rem 0; text-align: center; }
.qr { width: min(16rem, 100%); height: auto; border: 1px solid var(--line); }
figcaption { color: var(--ink-soft); font-size: 0.95rem; }
`;
