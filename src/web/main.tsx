import { render } from "preact";
import { App } from "./app";
import { reloadOnRebuild } from "./dev-reload";
import { fetchHelpContact } from "./help-contact";
// The console's own styles are in the one stylesheet; its script is a chunk loaded when opened (app.tsx).
import "./pages/admin/admin.css";
import "./styles.css";

render(<App />, document.getElementById("app")!);
// Kept for the offline shell: whom to call is on the page even when skrining cannot be reached.
fetchHelpContact().catch(() => undefined);
if (process.env.NODE_ENV === "development") reloadOnRebuild();
// The page opens without a connection: the service worker keeps this build's page and assets (src/web/worker).
else if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => undefined);
