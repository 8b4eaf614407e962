// npm run dev [-- serve options]: the service for development. A change under src/web
// rebuilds the web interface (unminified); a change of the server's code, or a rebuild,
// restarts the server once the previous one has stopped; an open page reloads itself
// after a rebuild (src/web/dev-reload.ts).
import { type Subprocess } from "bun";
import { watch } from "node:fs";
import { join, sep } from "node:path";

const root = join(import.meta.dir, "..");
const inherit: ["inherit", "inherit", "inherit"] = ["inherit", "inherit", "inherit"];
const serveArguments = process.argv.slice(2);

function buildWeb(): boolean {
  const { exitCode } = Bun.spawnSync([process.execPath, "scripts/build-web.ts", "--development"], { cwd: root, stdio: inherit });
  if (exitCode !== 0) console.error("web: the build failed; fix it and save again");
  return exitCode === 0;
}

let server: Subprocess | undefined;
let restarting = Promise.resolve();

/** Stops the running server (it finishes its writes on SIGTERM) before the next one takes the port. */
function restart(): void {
  restarting = restarting.then(async () => {
    if (server) {
      server.kill("SIGTERM");
      await server.exited;
    }
    server = Bun.spawn([process.execPath, "cli/main.ts", "serve", ...serveArguments], { cwd: root, stdio: inherit });
  });
}

/** An editor saves a file in several steps: act once they have settled. */
function settled(action: () => void): () => void {
  let pending: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(pending);
    pending = setTimeout(action, 150);
  };
}

const rebuild = settled(() => {
  if (buildWeb()) restart();
});
const restartLater = settled(restart);
watch(join(root, "src"), { recursive: true }, (_event, name) => {
  if (!name || name.endsWith(".generated.ts")) return;
  (name.startsWith(`web${sep}`) ? rebuild : restartLater)();
});
watch(join(root, "cli"), { recursive: true }, restartLater);

if (!buildWeb()) process.exit(1);
restart();

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    await restarting;
    server?.kill(signal);
    await server?.exited;
    process.exit(0);
  });
}
