import { describe, expect, test } from "bun:test";
import { startHint } from "../../cli/program";
import { runCli } from "../helpers";

// Issue 44, item 16: `skrining` without a command (skrining.exe double-clicked on Windows)
// printed commander's help and ended with 1; it says how to start instead. The window that
// waits for Enter: test-windows/windows.test.ts, under Wine.

describe("skrining without a command", () => {
  test("says what it is and how to start it on this system, in Indonesian; exit 1 (no command), no waiting without a window of its own", async () => {
    const result = await runCli([]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(`${startHint(process.platform, process.execPath, false).join("\n")}\n`);
    expect(result.stdout).toContain("skrining --data /var/lib/skrining serve");
    expect(result.stdout).not.toContain("Tekan Enter");
  });

  test("on Windows it names the executable where it is, as PowerShell runs it, and the data folder of the service", () => {
    const lines = startHint("win32", "C:\\Program Files\\skrining\\skrining.exe", true);
    expect(lines[0]).toBe("skrining adalah layanan untuk jaringan kampus, bukan aplikasi berjendela: ia dijalankan dari PowerShell, atau sebagai layanan Windows yang mulai sendiri.");
    expect(lines).toContain('  & "C:\\Program Files\\skrining\\skrining.exe" --data C:\\ProgramData\\skrining\\data serve');
    expect(lines.at(-1)).toBe('Semua perintah: & "C:\\Program Files\\skrining\\skrining.exe" --help');
  });
});
