import type { Page } from "playwright-core";

// The follow-up pages as the browser tests read them: the case list's cards, a case's
// timeline and its status form.

/** The cards of the case list, and one of them by the student's name. */
export const cards = (page: Page) => page.locator(".student-list > li");
export const card = (page: Page, name: string) => cards(page).filter({ has: page.getByRole("heading", { level: 3, name, exact: true }) });
export const timeline = (page: Page) => page.locator(".follow-up-timeline > li");
export const choice = (page: Page, label: RegExp) => page.getByRole("radio", { name: label });
export const note = (page: Page) => page.getByLabel("Catatan", { exact: true });
export const save = (page: Page) => page.getByRole("button", { name: "Simpan status" });

/** A median of days as the page writes it: Indonesian decimals, "—" for none. */
export const median = (value: number | null) => (value === null ? "—" : String(value).replace(".", ","));

/** The radio choices the status form offers now. */
export const offered = async (page: Page) => (await page.getByRole("radio").evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).sort();
