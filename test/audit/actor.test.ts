import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { accountNameOf, operatingSystemAccount } from "../../src/os-account";
import { cliEnvironment, repositoryRoot, standardAccounts, temporaryDir } from "../helpers";
import { cli, csvFile } from "../cli/support";

// Decisions §16: the rows a command writes name the operating-system account that ran it,
// also when the environment does not say (a service manager, cron, `env -i`).

/** The account name the system itself gives for this process's uid. */
const systemName = () => Bun.spawnSync(["id", "-un"]).stdout.toString().trim();

describe("the operating-system account", () => {
  test("is the password file's name for the uid, whatever $USER says", () => {
    expect(operatingSystemAccount()).toBe(systemName());
    const file = "root:x:0:0:root:/root:/bin/bash\nbudi:x:1000:1000:Budi,,,:/home/budi:/bin/bash\n#rusak\n:x:7:7::/:/bin/sh\n";
    expect(accountNameOf(1000, file)).toBe("budi");
    expect(accountNameOf(0, file)).toBe("root");
    expect(accountNameOf(7, file)).toBeNull();
    expect(accountNameOf(4242, file)).toBeNull();
  });

  test("an account the password file does not know is named by its uid", () => {
    const empty = join(temporaryDir("skrining-passwd-"), "passwd");
    writeFileSync(empty, "");
    expect(operatingSystemAccount(empty)).toBe(`uid ${process.getuid!()}`);
    expect(operatingSystemAccount(join(temporaryDir("skrining-passwd-"), "tidak-ada"))).toBe(`uid ${process.getuid!()}`);
  });

  test("a command run without $USER and $LOGNAME writes its row under the system's name, not unknown", async () => {
    const dataDir = join(temporaryDir("skrining-actor-"), "data");
    expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
    const environment = cliEnvironment();
    delete environment.USER;
    delete environment.LOGNAME;
    delete environment.SUDO_USER;
    const child = Bun.spawn([process.execPath, join(repositoryRoot, "cli", "main.ts"), "--data", dataDir, "accounts", "activate", "mhs3"], { env: environment, stdout: "pipe", stderr: "pipe" });
    expect(await child.exited).toBe(0);
    const listed = await cli(dataDir, ["audit", "list", "--format", "json", "--action", "activate"]);
    expect(JSON.parse(listed.stdout).map((row: { pengguna: string; peran: string }) => [row.pengguna, row.peran])).toEqual([[systemName(), "cli"]]);
  });
});
