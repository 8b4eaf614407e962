#!/usr/bin/env bun
import { engineRestart } from "./engine-options";

// Before the program is loaded: serve may start itself again with the engine's options.
const restart = engineRestart(process, Bun.main.startsWith("/$bunfs/"));
if (restart) process.execve!(restart.file, restart.args, restart.env);

const [{ processIo }, { pipeAwareOutput }, { run }] = await Promise.all([import("./common"), import("./pipes"), import("./program")]);
process.exitCode = await run(process.argv.slice(2), { ...processIo, ...pipeAwareOutput() });
