import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { predictCsv } from "../../src/models/batch";
import type { ModelType } from "../../src/models/classifier";
import { readModelSource } from "../../src/models/files";
import { parseModelJson } from "../../src/models/format";
import { CompiledModel } from "../../src/models/predict";

/**
 * Every kind skrining reads, saved by scikit-learn 1.2.1, 1.6.1 and 1.9.1
 * (test/models/fixtures/make.py): labels equal to scikit-learn's predict on every row,
 * probabilities equal to its predict_proba within 1e-9.
 */

const fixturesDir = join(import.meta.dir, "fixtures");
const versions = ["1.2", "1.6", "1.9"] as const;
const tolerance = 1e-9;

interface ManifestEntry {
  name: string;
  file: string;
  kind: string;
  type: ModelType | null;
  saved: "joblib" | "pickle";
  missing?: boolean;
}

function manifest(version: string): { versions: Record<string, string>; models: ManifestEntry[] } {
  return JSON.parse(readFileSync(join(fixturesDir, `sklearn-${version}`, "manifest.json"), "utf8"));
}

/** Converted, written as JSON and read back: the path every model takes into the server. */
function throughJson(path: string): CompiledModel {
  return new CompiledModel(parseModelJson(JSON.stringify(readModelSource(path).document)));
}

/** The cells that differ: labels exactly, probabilities beyond the tolerance (or one empty and not the other). */
export function differences(actual: string, expected: string): string[] {
  const actualLines = actual.trimEnd().split("\n");
  const expectedLines = expected.trimEnd().split("\n");
  if (actualLines[0] !== expectedLines[0]) return [`header ${actualLines[0]} ≠ ${expectedLines[0]}`];
  if (actualLines.length !== expectedLines.length) return [`${actualLines.length} lines ≠ ${expectedLines.length}`];
  const header = expectedLines[0]!.split(",");
  const wrong: string[] = [];
  for (let line = 1; line < expectedLines.length; line++) {
    const got = actualLines[line]!.split(",");
    const want = expectedLines[line]!.split(",");
    header.forEach((name, column) => {
      const [a, b] = [got[column]!, want[column]!];
      const same = name.startsWith("proba_") ? (a === "" && b === "") || (a !== "" && b !== "" && Math.abs(Number(a) - Number(b)) <= tolerance) : a === b;
      if (!same) wrong.push(`line ${line + 1} ${name}: ${a} ≠ ${b}`);
    });
  }
  return wrong;
}

for (const version of versions) {
  const dir = join(fixturesDir, `sklearn-${version}`);
  const { versions: made, models } = manifest(version);
  const rows = readFileSync(join(dir, "rows.csv"), "utf8");
  const rowsMissing = readFileSync(join(dir, "rows_missing.csv"), "utf8");

  describe(`scikit-learn ${made.sklearn} (numpy ${made.numpy}): labels and probabilities of every row`, () => {
    test("the fixtures were made by the version their folder names", () => {
      expect(made.sklearn!.startsWith(`${version}.`)).toBe(true);
      expect(models.length).toBeGreaterThanOrEqual(15);
    });

    for (const entry of models) {
      test(`${entry.name} (${entry.kind}, ${entry.saved === "pickle" ? "pickle.dump protocol 5" : "joblib"})`, () => {
        const model = throughJson(join(dir, entry.file));
        const options = { type: entry.type ?? undefined, probabilities: true };
        expect(model.nOutputs).toBe(entry.type ? 1 : 2);
        const wrong = differences(predictCsv(model, rows, options), readFileSync(join(dir, `expected_${entry.name}.csv`), "utf8"));
        if (entry.missing) wrong.push(...differences(predictCsv(model, rowsMissing, options), readFileSync(join(dir, `expected_missing_${entry.name}.csv`), "utf8")));
        if (wrong.length > 0) throw new Error(`${wrong.length} cells differ:\n${wrong.slice(0, 12).join("\n")}`);
      });
    }
  });
}
