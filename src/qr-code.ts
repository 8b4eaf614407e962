import { encode } from "uqr";

// A QR code as one SVG path (uqr encodes; this draws): the certificate page inlines it and
// the admin console's page draws it from the same path, so that neither needs a script,
// an image from elsewhere or an inline style (the pages' CSP allows none, decisions §9).

/** The modules of a QR code with its quiet zone: `size` squares a side, `path` the dark ones. */
export interface QrDrawing {
  size: number;
  path: string;
}

/**
 * `text` (a URL) as a QR code at error correction M (a phone's camera reads it off a
 * screen with some glare), with the four-module quiet zone readers expect.
 */
export function qrDrawing(text: string): QrDrawing {
  const { data, size } = encode(text, { ecc: "M", border: 4 });
  const runs: string[] = [];
  data.forEach((row, y) => {
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      // One rectangle per run of dark modules in a row keeps the path short.
      let end = x;
      while (end + 1 < size && row[end + 1]) end++;
      runs.push(`M${x} ${y}h${end - x + 1}v1h-${end - x + 1}z`);
      x = end;
    }
  });
  return { size, path: runs.join("") };
}

/** The drawing as an SVG element, for a page rendered on the server; `label` is what a screen reader says. */
export function qrSvg(drawing: QrDrawing, label: string): string {
  const escaped = label.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${drawing.size} ${drawing.size}" role="img" aria-label="${escaped}" shape-rendering="crispEdges"><rect width="${drawing.size}" height="${drawing.size}" fill="#fff"/><path d="${drawing.path}" fill="#000"/></svg>`;
}
