// Replaced by scripts/build-web.ts at build time ("production", or "development" for npm run dev).
declare const process: { env: { NODE_ENV: "production" | "development" } };
