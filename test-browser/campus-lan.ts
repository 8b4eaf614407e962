// A phone on the campus LAN, as a test can make one: a network namespace of its own joined
// to this machine by a veth pair, the server bound on the host side's address and Chromium
// run inside the namespace, with a profile (its NSS database under a temporary HOME) that
// trusts the test's CA. Traffic goes only to the test's own namespace (never to the
// machine's other addresses). Names start with `sk41`; everything is removed at the end.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumPath } from "./support";

export interface CampusLan {
  /** The PC's address on this LAN (the host side of the veth pair): the server listens here. */
  pcAddress: string;
  /** The phone's address (inside the namespace). */
  phoneAddress: string;
  /** A Chromium that runs inside the namespace, and the environment that gives it the profile trusting `authority`. */
  browserIn(authority: string): { executablePath: string; env: Record<string, string> };
  remove(): void;
}

function run(command: string[]): { ok: boolean; output: string } {
  const result = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
  return { ok: result.exitCode === 0, output: `${result.stdout.toString()}${result.stderr.toString()}`.trim() };
}

/**
 * Makes the namespace and its veth pair, or says why it cannot (not root, no `ip`, no
 * `certutil`, namespaces refused): the tests that need it are then skipped with that reason.
 */
export function makeCampusLan(): CampusLan | string {
  for (const tool of ["ip", "certutil"]) if (!run(["sh", "-c", `command -v ${tool}`]).ok) return `${tool} is not installed (iproute2, libnss3-tools)`;
  const suffix = Math.floor(Math.random() * 0xfff).toString(16).padStart(3, "0");
  const namespace = `sk41${suffix}`;
  const [hostSide, phoneSide] = [`sk41${suffix}h`, `sk41${suffix}p`];
  const subnet = 1 + Math.floor(Math.random() * 254);
  const [pcAddress, phoneAddress] = [`10.41.${subnet}.1`, `10.41.${subnet}.2`];
  const folder = mkdtempSync(join(tmpdir(), "skrining-lan-"));
  const remove = () => {
    run(["ip", "netns", "del", namespace]);
    run(["ip", "link", "del", hostSide]);
    rmSync(folder, { recursive: true, force: true });
  };
  const steps = [
    ["ip", "netns", "add", namespace],
    ["ip", "link", "add", hostSide, "type", "veth", "peer", "name", phoneSide],
    ["ip", "link", "set", phoneSide, "netns", namespace],
    ["ip", "addr", "add", `${pcAddress}/30`, "dev", hostSide],
    ["ip", "link", "set", hostSide, "up"],
    ["ip", "netns", "exec", namespace, "ip", "addr", "add", `${phoneAddress}/30`, "dev", phoneSide],
    ["ip", "netns", "exec", namespace, "ip", "link", "set", phoneSide, "up"],
    ["ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up"],
  ];
  for (const step of steps) {
    const result = run(step);
    if (!result.ok) {
      remove();
      return `cannot make a network namespace (${step.join(" ")}: ${result.output})`;
    }
  }
  return {
    pcAddress,
    phoneAddress,
    browserIn(authority) {
      const home = join(folder, "home");
      const database = join(home, ".pki", "nssdb");
      mkdirSync(database, { recursive: true });
      const caFile = join(folder, "ca.crt");
      writeFileSync(caFile, authority);
      for (const step of [
        ["certutil", "-d", `sql:${database}`, "-N", "--empty-password"],
        ["certutil", "-d", `sql:${database}`, "-A", "-t", "C,,", "-n", "skrining-test-ca", "-i", caFile],
      ]) {
        const result = run(step);
        if (!result.ok) throw new Error(`${step.join(" ")}: ${result.output}`);
      }
      const executablePath = join(folder, "chromium-in-namespace");
      writeFileSync(executablePath, `#!/bin/sh\nexec ip netns exec ${namespace} ${chromiumPath} "$@"\n`);
      chmodSync(executablePath, 0o755);
      return { executablePath, env: { ...(process.env as Record<string, string>), HOME: home } };
    },
    remove,
  };
}
