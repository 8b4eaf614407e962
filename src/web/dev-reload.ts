// `npm run dev` only: the production build drops this (process.env.NODE_ENV is replaced at
// build time and the call below it is dead code there).

/** Which assets a page names: a rebuild gives the script or the stylesheet a new name. */
const assetNames = (html: string) => (html.match(/\/assets\/[^"]+/g) ?? []).join(" ");

/** Reloads the page once a rebuild (scripts/dev.ts) has changed what the page loads. */
export function reloadOnRebuild(): void {
  const loaded = assetNames(document.head.innerHTML);
  setInterval(async () => {
    try {
      const page = await (await fetch("/", { cache: "no-store" })).text();
      if (assetNames(page) !== loaded) location.reload();
    } catch {
      // The server is restarting after a change of its own code: ask again next time.
    }
  }, 1000);
}
