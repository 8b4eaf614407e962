// Double-clicked in Explorer, skrining.exe gets a console window of its own, which closes the
// moment the program ends: whatever it printed is gone before anyone reads it (issue 44,
// item 16). Such a process is the only one attached to its console; one started from
// PowerShell or cmd shares the console with them. Windows says how many share it
// (GetConsoleProcessList, kernel32), asked through bun:ffi, which the executable carries.

/** Whether this process is alone in its console window: on Windows, started from Explorer (or a shortcut). */
export async function aloneInConsoleWindow(platform: NodeJS.Platform = process.platform): Promise<boolean> {
  if (platform !== "win32") return false;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    const kernel32 = dlopen("kernel32.dll", { GetConsoleProcessList: { args: [FFIType.ptr, FFIType.u32], returns: FFIType.u32 } });
    try {
      // 0: no console (output redirected, a service); 1: this process alone; more: a shell's console.
      return kernel32.symbols.GetConsoleProcessList(new Uint32Array(4), 4) === 1;
    } finally {
      kernel32.close();
    }
  } catch {
    return false;
  }
}

/** Waits until a line is typed (Enter) on standard input, or it ends. */
export function waitForEnter(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.stdin.pause();
      resolve();
    };
    process.stdin.once("data", done);
    process.stdin.once("end", done);
    process.stdin.resume();
  });
}
