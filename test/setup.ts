import { afterAll } from "bun:test";
import { chooseTemporaryBase, removeTemporaryDirs } from "./temporary";

// Preloaded by bunfig.toml, before any test file is loaded (in each worker of a parallel run).
chooseTemporaryBase();
// Removes the folders the tests made: once after the last file, or in a parallel run after
// each file of a worker.
afterAll(removeTemporaryDirs);
