import { Elysia } from "elysia";
import { HelpContactResponse } from "./model";
import type { ContentService } from "./service";

/** Texts the faculty sets for everyone, signed in or not. */
export const contentController = (content: ContentService) =>
  new Elysia({ prefix: "/api/konten", tags: ["content"] }).get("/bantuan", () => content.help.current(), {
    response: { 200: HelpContactResponse },
    detail: { summary: "Where a student can get help (the faculty's text; no token needed)" },
  });
