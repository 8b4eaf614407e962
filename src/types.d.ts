// SQL migration files are imported as text (Bun's `with { type: "text" }`), which also
// embeds them in the compiled executable.
declare module "*.sql" {
  const text: string;
  export default text;
}

// CHANGELOG.md likewise, embedded for `skrining changelog` (src/changelog.ts).
declare module "*.md" {
  const text: string;
  export default text;
}
