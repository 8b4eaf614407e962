// The service worker (served as /sw.js): the app shell opens without a connection. It keeps
// this build's page and assets in one cache whose name comes from the build's asset hashes,
// so a new build installs a new worker with a new cache and the old cache is deleted. Pages
// are asked of the network first, the kept page answering only when the network cannot;
// assets, named by their content, come from the cache. The API is never touched: its answers
// are nobody's to keep (decisions: Web interface).
import { matchPage } from "../routes";

declare const self: ServiceWorkerGlobalScope;
/** Filled in by scripts/build-web.ts: the cache of this build, and the paths it holds. */
declare const SKRINING_CACHE: string;
declare const SKRINING_PRECACHE: string[];

/** Every page path answers the same page; it is kept under the root's path. */
const shellPath = "/";
const cachePrefix = "skrining-";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SKRINING_CACHE)
      .then((cache) => cache.addAll(SKRINING_PRECACHE))
      // The new build's page and assets are complete: the new worker need not wait for every tab to close.
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith(cachePrefix) && name !== SKRINING_CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    if (!matchPage(url.pathname)) return;
    event.respondWith(fetch(request).catch(async () => (await caches.match(shellPath, { cacheName: SKRINING_CACHE })) ?? Response.error()));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(caches.match(request, { cacheName: SKRINING_CACHE, ignoreVary: true }).then((kept) => kept ?? fetch(request)));
  }
});
