// The one password rule (decisions §1 and §10), for every route and command that sets a
// password and for the web interface's forms, which ask it before a round trip. This file
// imports nothing, so the browser's bundle takes it as it is.

export const passwordRule = "Password harus minimal 8 karakter, maksimal 72 byte, dan tidak boleh hanya berisi spasi.";

/** Whether a new password breaks the rule: fewer than 8 characters, more than 72 bytes of UTF-8 (bcrypt's limit), or only white space. */
export function breaksPasswordRule(password: string): boolean {
  return [...password].length < 8 || new TextEncoder().encode(password).length > 72 || password.trim() === "";
}
