// `npm run build:windows`: cross-compiles dist/skrining.exe (x64) on Linux.
//
// npm installs only the bcrypt addon of the machine it runs on, so the Windows one
// (`@node-rs/bcrypt-win32-x64-msvc`, the same version as the installed `@node-rs/bcrypt`)
// is fetched from the npm registry with `npm pack` into node_modules/.cache and put where
// the addon's loader requires it from; `bun build --compile` then embeds its `.node` file.
// The build fails when the addon is not embedded, rather than shipping an executable that
// cannot check a password.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { extract } from "tar";
import { compileCommand, executableEntries } from "./build-executable";

const root = join(import.meta.dir, "..");
const addonName = "@node-rs/bcrypt-win32-x64-msvc";
const version = (JSON.parse(readFileSync(join(root, "node_modules/@node-rs/bcrypt/package.json"), "utf8")) as { version: string }).version;
const cache = join(root, "node_modules", ".cache", "skrining-windows");
const addonFolder = join(root, "node_modules", addonName);
const outfile = join(root, "dist", "skrining.exe");

function run(command: string[], cwd = root): string {
  const result = Bun.spawnSync(command, { cwd, stdout: "pipe", stderr: "inherit" });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} gagal (kode ${result.exitCode})`);
  return result.stdout.toString();
}

function installedAddonVersion(): string | undefined {
  const manifest = join(addonFolder, "package.json");
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version : undefined;
}

if (installedAddonVersion() !== version) {
  mkdirSync(cache, { recursive: true });
  const archive = join(cache, `node-rs-bcrypt-win32-x64-msvc-${version}.tgz`);
  if (!existsSync(archive)) {
    console.log(`Mengambil ${addonName}@${version} dari registry npm`);
    run(["npm", "pack", `${addonName}@${version}`, "--pack-destination", cache, "--silent"]);
  }
  rmSync(addonFolder, { recursive: true, force: true });
  mkdirSync(addonFolder, { recursive: true });
  await extract({ file: archive, cwd: addonFolder, strip: 1 });
}

run(["bun", "scripts/build-web.ts"]);
run(compileCommand({ entries: executableEntries, outfile, target: "bun-windows-x64-baseline", extra: ["--sourcemap"] }));

// The addon is embedded as it is, so its bytes (its last 4 KB suffice) appear verbatim.
const executable = Buffer.from(await Bun.file(outfile).arrayBuffer());
const addon = readFileSync(join(addonFolder, "bcrypt.win32-x64-msvc.node"));
const probe = addon.subarray(addon.length - 4096, addon.length);
if (!executable.includes(probe)) {
  console.error(`Addon bcrypt Windows tidak tertanam di ${outfile}.`);
  process.exit(1);
}
console.log(`${outfile}: ${(executable.length / 1e6).toFixed(1)} MB, addon bcrypt Windows ${version} tertanam.`);
