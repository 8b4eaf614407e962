#!/usr/bin/env bun
import { processIo } from "./common";
import { pipeAwareOutput } from "./pipes";
import { run } from "./program";

process.exitCode = await run(process.argv.slice(2), { ...processIo, ...pipeAwareOutput() });
