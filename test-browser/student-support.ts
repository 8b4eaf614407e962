import type { Page } from "playwright-core";
import { openMenu, signIn } from "./support";

// What the student's browser tests share: headings, the main menu, signing in, local dates.

export const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });

/** Through the main menu, as a person does (on a phone the menu opens first). */
export async function goTo(page: Page, link: string, title = link): Promise<void> {
  await openMenu(page);
  // A menu entry may carry a count ("Catatan dosen (1 belum dibaca)").
  const name = new RegExp(`^${link}( \\(.+\\))?$`);
  await page.getByRole("navigation", { name: "Navigasi utama" }).getByRole("link", { name }).click();
  await heading(page, title).waitFor();
}


/** Signs a student in from the home page and waits for Beranda. */
export async function signInAs(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.goto("/");
  await signIn(page, account);
  await heading(page, "Beranda").waitFor();
}

/** A calendar date in the faculty's time zone, `days` from today. */
export function jakartaDate(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(Date.now() + days * 86_400_000));
}
