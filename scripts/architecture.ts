// The drawing of the house (docs/architecture.md, "The layers"): every file of src/ and cli/
// in a room (a folder, a feature module, a file at the top of src/), the arrows between rooms
// (type-only imports count: a loop of types is still a loop for a reader), the arrows that
// run against the layers, and the circles among files. `bun scripts/architecture.ts` prints
// it; test/architecture/rooms.test.ts holds the house to it.
import { importsOf, sourceFiles } from "./imports";

/**
 * The layers, lowest first: a room may import its own layer and the ones below. The top-level
 * files of src/ not named here are the base (errors, config, logger, local time, ...).
 */
export const layers: readonly { name: string; rooms: (room: string) => boolean }[] = [
  { name: "base", rooms: (room) => !room.includes("/") && !composition.has(room) && !libraryFiles.has(room) && !["db", "web", "cli", "http", "context"].includes(room) && !libraries.has(room) && !rules.has(room) },
  { name: "rules", rooms: (room) => rules.has(room) },
  { name: "database", rooms: (room) => room === "db" },
  { name: "libraries", rooms: (room) => libraries.has(room) || libraryFiles.has(room) },
  { name: "core", rooms: (room) => room === "context" },
  { name: "http", rooms: (room) => room === "http" },
  { name: "feature modules", rooms: (room) => room.startsWith("modules/") },
  { name: "web interface", rooms: (room) => room === "web" },
  { name: "composition", rooms: (room) => composition.has(room) || room === "cli" },
];

/** Pure rules: what the questionnaire's answers mean, computed from values alone (the tables' generated columns use them too). */
const rules = new Set(["skrining", "measurement"]);
/** What the services are made of: neither HTTP nor a feature. */
const libraries = new Set(["accounts", "audit", "auth", "backup", "konten", "diagnosis", "models", "photos", "privasi", "requests", "tls"]);
/** Files at the top of src/ that read the database or a library. */
const libraryFiles = new Set(["records", "profile-fields"]);
/** What puts the process together. */
const composition = new Set(["app", "server", "banner"]);

/** A file's room: `modules/<feature>`, the folder under src/ (`db`, `http`, `web`), `cli`, or a top-level file's name. */
export function roomOf(file: string): string {
  if (file.startsWith("cli/")) return "cli";
  const parts = file.replace(/^src\//, "").split("/");
  if (parts[0] === "modules") return `modules/${parts[1]}`;
  if (parts.length === 1) return parts[0]!.replace(/\.tsx?$/, "");
  return parts[0]!;
}

export function layerOf(room: string): number {
  const index = layers.findIndex((layer) => layer.rooms(room));
  if (index < 0) throw new Error(`no layer for ${room}`);
  return index;
}

export interface Arrow {
  from: string;
  to: string;
  /** The imports behind it, `file → file`. */
  imports: string[];
}

export interface Drawing {
  rooms: string[];
  arrows: Arrow[];
  /** Arrows from a lower layer to a higher one. */
  againstLayers: Arrow[];
  /** Files importing each other round, each as the files of one strongly connected set. */
  circles: string[][];
}

/** The drawing of src/ and cli/ as they are on disk. */
export function drawHouse(): Drawing {
  const files = [...sourceFiles("src"), ...sourceFiles("cli")].filter((file) => !file.includes(".generated."));
  const edges = new Map(files.map((file) => [file, importsOf(file).filter((target) => target.startsWith("src/") || target.startsWith("cli/"))]));
  const arrows = new Map<string, Arrow>();
  for (const [file, targets] of edges) {
    for (const target of targets) {
      const from = roomOf(file);
      const to = roomOf(target);
      if (from === to) continue;
      const key = `${from} → ${to}`;
      const arrow = arrows.get(key) ?? { from, to, imports: [] };
      arrow.imports.push(`${file} → ${target}`);
      arrows.set(key, arrow);
    }
  }
  const all = [...arrows.values()].sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`));
  return {
    rooms: [...new Set(files.map(roomOf))].sort(),
    arrows: all,
    againstLayers: all.filter((arrow) => layerOf(arrow.from) < layerOf(arrow.to)),
    circles: stronglyConnected(edges).filter((set) => set.length > 1),
  };
}

/** Tarjan's strongly connected sets of a graph of files. */
export function stronglyConnected(edges: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const sets: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) === index.get(file)) {
      const set: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        set.push(member);
      } while (member !== file);
      sets.push(set.sort());
    }
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return sets;
}

if (import.meta.main) {
  const drawing = drawHouse();
  const verbose = process.argv.includes("--all");
  console.log(`${drawing.rooms.length} rooms, ${drawing.arrows.length} arrows`);
  for (const [index, layer] of layers.entries()) console.log(`  ${index} ${layer.name}: ${drawing.rooms.filter((room) => layerOf(room) === index).join(", ")}`);
  if (verbose) for (const arrow of drawing.arrows) console.log(`  ${arrow.from} → ${arrow.to} (${arrow.imports.length})`);
  console.log(`\n${drawing.againstLayers.length} arrows against the layers:`);
  for (const arrow of drawing.againstLayers) {
    console.log(`  ${arrow.from} (${layers[layerOf(arrow.from)]!.name}) → ${arrow.to} (${layers[layerOf(arrow.to)]!.name})`);
    for (const line of arrow.imports) console.log(`      ${line}`);
  }
  console.log(`\n${drawing.circles.length} circles:`);
  for (const circle of drawing.circles) console.log(`  ${circle.join(", ")}`);
}
