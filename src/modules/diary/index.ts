import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, jsonBody, refusal, studentWriteRefusals } from "../../http/documentation";
import { auditStudents } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { DiaryEntry } from "../../records";
import { entryDeleteRoute, entryListRoute, entryRefusals, type DatedEntryKind } from "../dated-entries";
import { DiaryCreateBody, DiaryList, DiaryUpdateBody } from "./model";
import type { AppContext } from "../../context";
import { diaryMessages, DiaryService } from "./service";

/** The routes the diary shares with the mood log: its list and the delete. */
const kind: DatedEntryKind = { path: "diary", noun: "diary", list: DiaryList, studentUnknown: diaryMessages.studentUnknown };
const { unknownEntry, othersEntry } = entryRefusals(kind);
const quotaFull = { status: 400, when: "the student's diary would exceed its quota" };

/** The student's diary entries, any number per date. */
export function diaryModule(core: AppContext, guards: RouteGuards) {
  const diary = new DiaryService(core.db, core.writes, core.restriction, core.config.diaryQuotaBytes);
  return { diary, routes: diaryRoutes(guards, diary) };
}

const diaryRoutes = (guards: RouteGuards, diary: DiaryService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["diary"] })
    .use(guards)
    .post("/diary", async ({ principal, body, set }) => {
      const entry = await diary.create(principal, body as JsonObject);
      set.status = 201;
      return entry;
    }, {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: {
        201: DiaryEntry,
        ...studentWriteRefusals(
          { status: 400, when: "an admin gives no `nim`, or `date` or `content` is missing or breaks its rule" },
          quotaFull,
          refusal.studentUnknown,
        ),
      },
      detail: { summary: "Write a diary entry", security: bearer, requestBody: jsonBody(DiaryCreateBody) },
      audit: { action: "create", students: auditStudents.answer },
    })
    .use(entryListRoute(guards, kind, diary))
    .put("/diary/:id", ({ principal, params, body }) => diary.update(principal, params.id, body as JsonObject), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: {
        200: DiaryEntry,
        ...studentWriteRefusals(
          { status: 400, when: "`content`, `title` or `date` breaks its rule" },
          quotaFull,
          othersEntry,
          unknownEntry,
        ),
      },
      detail: { summary: "Change a diary entry's title, content or date", security: bearer, requestBody: jsonBody(DiaryUpdateBody) },
      audit: { action: "update", students: auditStudents.answer },
    })
    .use(entryDeleteRoute(guards, kind, diary));
