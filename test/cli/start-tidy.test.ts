import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { temporaryDir } from "../helpers";
import { serveInProcess, stop, stopStarted } from "../server-process";
import { cli, csvFile } from "./support";

// `serve` tidies the photos folder (half-written uploads deleted, photos no profile refers
// to moved to photos/unreferenced/) once its database passed the check that runs after the
// port opened, and only among the files that were there before.

afterEach(stopStarted);

test("a sound database: the photos folder is tidied after the check, and says so", async () => {
  const dataDir = join(temporaryDir("skrining-tidy-"), "data");
  const imported = await cli(dataDir, ["accounts", "import", csvFile("role,username,password,nim,activated\nmahasiswa,mhs1,mhs-pass-1,N001,true\n")]);
  expect(imported.exitCode).toBe(0);
  const photos = join(dataDir, "photos");
  writeFileSync(join(photos, ".upload-deadbeef"), "half");
  writeFileSync(join(photos, "N001_1_abcd0000.jpg"), "orphan");

  const server = await serveInProcess({ dataDir });
  for (const deadline = Date.now() + 20_000; !server.stdout().includes("file foto tanpa pemilik") && Date.now() < deadline; ) await Bun.sleep(50);
  expect(server.stdout()).toContain(`1 unggahan foto yang tidak selesai dihapus dari ${photos}`);
  expect(server.stdout()).toContain(`1 file foto tanpa pemilik dipindahkan ke ${join(photos, "unreferenced")}`);
  expect(existsSync(join(photos, ".upload-deadbeef"))).toBe(false);
  expect(readdirSync(join(photos, "unreferenced"))).toEqual(["N001_1_abcd0000.jpg"]);
  expect(await stop(server)).toBe(0);
}, 60_000);
