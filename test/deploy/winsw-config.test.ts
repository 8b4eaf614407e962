import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "../helpers";
import { serviceRecipePath, windowsArguments } from "./service-recipe";
import { parseXml, serviceAccountOf, winswCommandLine, winswProblems, winswRules } from "./winsw-config";

// Issue 44, item 2: deploy/skrining-service.xml against the WinSW version the docs pin
// (2.12.0), by the rules written down from that version's source
// (test/deploy/fixtures/winsw-2.12.0.json, which names the file and commit it restates).

const xml = readFileSync(serviceRecipePath, "utf8");

describe(`deploy/skrining-service.xml and WinSW ${winswRules.winsw}`, () => {
  test("every element and attribute is one that version reads, in the form it reads", () => {
    expect(winswProblems(xml)).toEqual([]);
  });

  test("it installs the service as LocalService (NT AUTHORITY\\LocalService), not LocalSystem", () => {
    expect(serviceAccountOf(xml)).toBe("NT AUTHORITY\\LocalService");
  });

  test("the file and the docs name the pinned version, its download and its SHA-256", () => {
    const operations = readFileSync(join(repositoryRoot, "docs", "operations.md"), "utf8");
    for (const text of [xml, operations]) {
      expect(text).toContain(winswRules.download.url);
      expect(text).toContain(winswRules.download.sha256);
    }
    expect(winswRules.source).toMatchObject({ repository: "https://github.com/winsw/winsw", tag: `v${winswRules.winsw}` });
  });
});

describe("the rules catch what WinSW 2.12.0 would read otherwise than meant", () => {
  const changed = (from: string, to: string) => {
    expect(xml).toContain(from);
    return xml.replace(from, to);
  };

  test.each([
    [
      "WinSW 3's <username> (ignored by 2.x: the service ran as LocalSystem)",
      changed("<domain>NT AUTHORITY</domain>\n    <user>LocalService</user>", "<username>NT AUTHORITY\\LocalService</username>"),
      "/service/serviceaccount/username: not an element WinSW 2.12.0 reads",
    ],
    ["a duration 2.12.0 cannot parse", changed("<stoptimeout>30sec</stoptimeout>", "<stoptimeout>30 seconds</stoptimeout>"), '/service/stoptimeout: "30 seconds" is no duration'],
    ["a start mode it does not know", changed("<startmode>Automatic</startmode>", "<startmode>AutoStart</startmode>"), '/service/startmode: "AutoStart" is not one of'],
    ["a failure action it does not know", changed('action="restart" delay="10 sec"', 'action="retry" delay="10 sec"'), '/service/onfailure@action: "retry" is not one of'],
    ["an unknown log mode", changed('<log mode="roll-by-size">', '<log mode="roll-by-megabytes">'), '/service/log@mode: "roll-by-megabytes" is not one of'],
    ["a size that is no number", changed("<sizeThreshold>1024</sizeThreshold>", "<sizeThreshold>1 MB</sizeThreshold>"), '/service/log/sizeThreshold: "1 MB" is no whole number'],
    ["an element given twice that it reads once", changed("<startmode>Automatic</startmode>", "<startmode>Automatic</startmode><startmode>Manual</startmode>"), "/service/startmode: more than once"],
    ["the executable missing", changed(/<executable>[^<]*<\/executable>/.exec(xml)![0], ""), "/service/executable: missing"],
    ["not well-formed", changed("</service>", ""), "not well-formed XML"],
  ])("%s", (_case, text, problem) => {
    expect(winswProblems(text).join("\n")).toContain(problem);
  });

  test("a service account without <user> is LocalSystem, as WinSW installs it", () => {
    expect(serviceAccountOf(changed("<user>LocalService</user>", ""))).toBe("LocalSystem");
    expect(serviceAccountOf(changed("<domain>NT AUTHORITY</domain>", ""))).toBe(".\\LocalService");
  });
});

describe("the command line WinSW 2.12.0 builds from <argument> elements", () => {
  test.each([
    [["--data", "C:\\ProgramData\\skrining\\data", "serve"], " --data C:\\ProgramData\\skrining\\data serve"],
    [["--data", "C:\\skrining uji\\data"], ' --data "C:\\skrining uji\\data"'],
    [['"C:\\already quoted"'], ' "C:\\already quoted"'],
  ])("%j", (given, line) => {
    expect(winswCommandLine(given)).toBe(line);
  });

  test("split by Windows, it gives skrining.exe each argument as written (the file's have no trailing backslash before a quote)", () => {
    const given = parseXml(xml).children.filter((child) => child.name === "argument").map((child) => child.text);
    expect(windowsArguments(winswCommandLine(given))).toEqual(given);
  });
});
