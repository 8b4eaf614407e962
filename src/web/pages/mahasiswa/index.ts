// The student's pages, by the name of their route (routes.ts).
import type { FunctionComponent } from "preact";
import type { PageProps } from "../../app";
import type { PageName } from "../../routes";
import { Beranda } from "./Beranda";

export const studentPages: Partial<Record<PageName, FunctionComponent<PageProps>>> = {
  beranda: Beranda,
};
