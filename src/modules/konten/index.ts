import { Elysia } from "elysia";
import { HelpContactResponse } from "./model";
import type { AppContext } from "../../context";
import { KontenService } from "./service";

/** Texts the faculty sets for everyone, signed in or not; the privacy notice's routes and the console's Teks page read and replace them. */
export function kontenModule(core: AppContext) {
  const content = new KontenService(core.config.dataDir, core.logger);
  return { content, routes: kontenRoutes(content) };
}

const kontenRoutes = (content: KontenService) =>
  new Elysia({ prefix: "/api/konten", tags: ["content"] }).get("/bantuan", () => content.help.current(), {
    response: { 200: HelpContactResponse },
    detail: { summary: "Where a student can get help (the faculty's text; no token needed)" },
  });
