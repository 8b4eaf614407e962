import { InvalidArgumentError, Option } from "commander";
import { resolve } from "node:path";
import { invalid } from "../src/errors";
import { logTimestamp } from "../src/local-time";
import { LogFile, withLogFile, type Logger } from "../src/logger";
import type { CommandIo } from "./common";

export interface LogFileFlags {
  logFile?: string;
  logMaxSize?: number;
  logKeep?: number;
}

const units: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
const defaultMaxBytes = 10 * units.MB!;
const defaultKeep = 5;
const smallestMaxBytes = units.KB!;

/** `10MB`, `512KB`, `1GB` or a number of bytes; KB = 1024 bytes. At least 1KB. */
export function byteSize(value: string): number {
  const match = /^\s*(\d+)\s*([KMG]?B)?\s*$/i.exec(value);
  const bytes = match ? Number(match[1]) * units[(match[2] ?? "B").toUpperCase()]! : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < smallestMaxBytes) {
    throw new InvalidArgumentError("ukuran harus seperti 10MB, 512KB atau 1GB, paling kecil 1KB.");
  }
  return bytes;
}

function keepCount(value: string): number {
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || number < 1 || number > 100) throw new InvalidArgumentError("jumlah harus bilangan bulat 1–100.");
  return number;
}

// The options of `serve` that also write the log to a file; each can come from the environment.
export const logFileOption = () => new Option("--log-file <file>", "juga menulis log ke file ini (atau SKRINING_LOG_FILE)");
export const logMaxSizeOption = () =>
  new Option("--log-max-size <ukuran>", "ukuran file log sebelum diganti yang baru, mis. 10MB (bawaan: 10MB, atau SKRINING_LOG_MAX_SIZE)").argParser(byteSize);
export const logKeepOption = () => new Option("--log-keep <jumlah>", "jumlah file log lama yang disimpan (bawaan: 5, atau SKRINING_LOG_KEEP)").argParser(keepCount);

/** A setting from the environment, read with the option's own parser so both refuse the same values. */
function fromEnvironment<Value>(io: CommandIo, name: string, parse: (value: string) => Value): Value | undefined {
  const raw = io.environment[name];
  if (raw === undefined || raw === "") return undefined;
  try {
    return parse(raw);
  } catch (error) {
    throw invalid(`${name} tidak valid (diberikan: ${raw}): ${(error as Error).message}`);
  }
}

/**
 * The log of `serve`: the command's streams, and the file when one is asked for. Call
 * `close` once the server has stopped.
 */
export function serveLogger(flags: LogFileFlags, streams: Logger, io: CommandIo, timeZone: string): { logger: Logger; close: () => void } {
  const path = flags.logFile ?? fromEnvironment(io, "SKRINING_LOG_FILE", (value) => value);
  if (path === undefined && (flags.logMaxSize !== undefined || flags.logKeep !== undefined)) {
    throw invalid("--log-max-size dan --log-keep hanya berlaku bersama --log-file (atau SKRINING_LOG_FILE).");
  }
  const maxBytes = flags.logMaxSize ?? fromEnvironment(io, "SKRINING_LOG_MAX_SIZE", byteSize) ?? defaultMaxBytes;
  const keep = flags.logKeep ?? fromEnvironment(io, "SKRINING_LOG_KEEP", keepCount) ?? defaultKeep;
  if (path === undefined) return { logger: streams, close: () => {} };
  // Entries begin with the faculty's local time, as the request lines do (issue 44).
  const file = new LogFile({ path: resolve(path), maxBytes, keep, stamp: () => logTimestamp(Date.now(), timeZone) }, (line) => streams.error(line));
  return { logger: withLogFile(streams, file), close: () => file.close() };
}
