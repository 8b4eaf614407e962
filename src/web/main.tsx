import { render } from "preact";
import { App } from "./app";
import { reloadOnRebuild } from "./dev-reload";
import "./styles.css";

render(<App />, document.getElementById("app")!);
if (process.env.NODE_ENV === "development") reloadOnRebuild();
