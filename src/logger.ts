/** Where the service writes its log lines; tests pass a quiet or capturing one. */
export interface Logger {
  info(line: string): void;
  error(line: string): void;
}

export const consoleLogger: Logger = {
  info: (line) => console.log(line),
  error: (line) => console.error(line),
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };
