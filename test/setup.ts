import { afterAll } from "bun:test";
import { removeTemporaryDirs } from "./temporary";

// Preloaded by bunfig.toml: a hook here runs once, after the last test file.
afterAll(removeTemporaryDirs);
