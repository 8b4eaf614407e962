// The page's stylesheet, served beside it: no fonts, images or imports from anywhere.
export const stylesheet = `:root {
  color-scheme: light dark;
  --text: #1f2328;
  --muted: #59636e;
  --background: #ffffff;
  --panel: #f6f8fa;
  --border: #d1d9e0;
  --link: #0550ae;
  --get: #116329;
  --post: #0550ae;
  --put: #7d4e00;
  --delete: #a40e26;
  --other: #59636e;
}
@media (prefers-color-scheme: dark) {
  :root {
    --text: #e6edf3;
    --muted: #9198a1;
    --background: #0d1117;
    --panel: #161b22;
    --border: #3d444d;
    --link: #79b8ff;
    --get: #56d364;
    --post: #79b8ff;
    --put: #e3b341;
    --delete: #ff7b72;
    --other: #9198a1;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0 auto;
  max-width: 72rem;
  padding: 1rem 1.5rem 3rem;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  line-height: 1.5;
  color: var(--text);
  background: var(--background);
}
a { color: var(--link); }
a:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
.skip { position: absolute; left: -100vw; }
.skip:focus { position: static; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.875rem; }
h1 { margin-bottom: 0.25rem; }
h2 { margin-top: 2.5rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--border); }
h3 { margin: 0 0 0.5rem; font-size: 1.1rem; overflow-wrap: anywhere; }
h4 { margin: 1rem 0 0.25rem; font-size: 1rem; }
.text { white-space: pre-line; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.125rem 1rem; margin: 0.5rem 0; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
nav ul { padding-left: 1.25rem; }
nav li { margin: 0.125rem 0; }
.operation {
  margin: 1.25rem 0;
  padding: 1rem;
  border: 1px solid var(--border);
  border-radius: 6px;
  background: var(--panel);
}
.summary { margin: 0.25rem 0; font-weight: 500; }
.method { display: inline-block; min-width: 4.5em; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 700; color: var(--other); }
.method-get { color: var(--get); }
.method-post { color: var(--post); }
.method-put, .method-patch { color: var(--put); }
.method-delete { color: var(--delete); }
table { width: 100%; border-collapse: collapse; margin: 0.25rem 0; }
th, td { padding: 0.375rem 0.5rem; border: 1px solid var(--border); text-align: left; vertical-align: top; }
thead th { background: var(--background); }
td p, th p { margin: 0 0 0.25rem; }
pre.schema {
  margin: 0 0 0.5rem;
  padding: 0.5rem 0.75rem;
  overflow-x: auto;
  border: 1px solid var(--border);
  border-radius: 4px;
  background: var(--background);
}
.media-type { color: var(--muted); }
`;
