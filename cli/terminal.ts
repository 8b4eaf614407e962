import { invalid } from "../src/errors";

const enter = new Set(["\r", "\n"]);
/** Ctrl-C and Ctrl-D: the administrator gives up. */
const cancel = new Set(["\u0003", "\u0004"]);
const erase = new Set(["\u007f", "\b"]);

/**
 * Reads one line from the terminal on standard input without showing it: the prompt on
 * standard error, the keys read in raw mode, so nothing typed is echoed. Backspace erases;
 * arrow and function keys (escape sequences) are ignored; Ctrl-C or Ctrl-D cancels.
 */
export function readSecretFromTerminal(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.setEncoding("utf8");
  input.resume();
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const finish = (settle: () => void) => {
      input.off("data", onKeys);
      input.setRawMode(false);
      input.pause();
      process.stderr.write("\n");
      settle();
    };
    const onKeys = (chunk: string) => {
      // A terminal sends one key's escape sequence as one chunk.
      if (chunk.startsWith("\u001b")) return;
      const keys = [...chunk];
      for (const [index, key] of keys.entries()) {
        if (enter.has(key)) {
          // Keys typed ahead (or pasted) after Enter belong to the next prompt.
          const rest = keys.slice(index + (key === "\r" && keys[index + 1] === "\n" ? 2 : 1)).join("");
          finish(() => resolve(typed.join("")));
          if (rest !== "") input.unshift(rest);
          return;
        }
        if (cancel.has(key)) return finish(() => reject(invalid("dibatalkan.")));
        if (erase.has(key)) typed = typed.slice(0, -1);
        else if (key >= " ") typed.push(key);
      }
    };
    input.on("data", onKeys);
  });
}
