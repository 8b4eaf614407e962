import { describe, expect, test } from "bun:test";
import { drawHouse, layerOf, layers, roomOf, stronglyConnected } from "../../scripts/architecture";

// docs/architecture.md, "The layers": the drawing of the imports (scripts/architecture.ts)
// holds at most a few arrows against the layers, none of them into a feature module, and no
// circle among the files (type-only imports count). `bun scripts/architecture.ts` prints it.

const drawing = drawHouse();
const describeArrow = (arrow: { from: string; to: string; imports: string[] }) => `${arrow.from} → ${arrow.to} (${arrow.imports.join(", ")})`;

describe("the drawing of the house", () => {
  test("it sees the rooms and their arrows", () => {
    expect(drawing.rooms).toContain("modules/skrining");
    expect(drawing.rooms).toContain("db");
    expect(drawing.rooms).toContain("cli");
    expect(drawing.arrows.length).toBeGreaterThan(100);
    expect(drawing.arrows.some((arrow) => arrow.from === "modules/mood" && arrow.to === "db")).toBe(true);
  });

  test("every room has a layer, and the layers run from the base to the composition", () => {
    for (const room of drawing.rooms) expect(layerOf(room)).toBeGreaterThanOrEqual(0);
    expect(layers[layerOf("errors")]!.name).toBe("base");
    expect(layerOf("db")).toBeLessThan(layerOf("accounts"));
    expect(layerOf("http")).toBeLessThan(layerOf("modules/mood"));
    expect(layerOf("context")).toBeLessThan(layerOf("modules/mood"));
    expect(layerOf("modules/mood")).toBeLessThan(layerOf("app"));
    expect(roomOf("src/modules/tindak-lanjut/cases.ts")).toBe("modules/tindak-lanjut");
    expect(roomOf("cli/accounts.ts")).toBe("cli");
  });

  test("at most 4 arrows run against the layers", () => {
    expect(drawing.againstLayers.length, drawing.againstLayers.map(describeArrow).join("\n")).toBeLessThanOrEqual(4);
  });

  test("no arrow from a lower layer runs into a feature module", () => {
    const intoModules = drawing.againstLayers.filter((arrow) => arrow.to.startsWith("modules/"));
    expect(intoModules.map(describeArrow)).toEqual([]);
  });

  test("a circle is found where there is one", () => {
    const loop = new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]], ["d.ts", ["a.ts"]]]);
    expect(stronglyConnected(loop).filter((set) => set.length > 1)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  test("no circle: no file imports itself round through others", () => {
    expect(drawing.circles.map((circle) => circle.join(", "))).toEqual([]);
  });
});
