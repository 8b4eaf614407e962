import { render } from "preact";
import { App } from "./app";
import { reloadOnRebuild } from "./dev-reload";
import "./styles.css";

render(<App />, document.getElementById("app")!);
if (process.env.NODE_ENV === "development") reloadOnRebuild();
// The page opens without a connection: the service worker keeps this build's page and assets (src/web/worker).
else if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => undefined);
