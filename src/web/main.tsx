import { render } from "preact";
import { App } from "./app";
import { reloadOnRebuild } from "./dev-reload";
// The console's own styles are in the one stylesheet; its script is a chunk loaded when opened (app.tsx).
import "./pages/admin/admin.css";
import "./styles.css";

render(<App />, document.getElementById("app")!);
if (process.env.NODE_ENV === "development") reloadOnRebuild();
// The page opens without a connection: the service worker keeps this build's page and assets (src/web/worker).
else if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => undefined);
