// The ceiling of the benchmark: the same Bun, no framework, no database, no token; a
// small JSON answer. Every endpoint's throughput is read as a fraction of this.
const port = Number(process.argv[2]);
const body = JSON.stringify({ ok: true, service: "skrining", message: "ceiling" });

Bun.serve({
  hostname: "127.0.0.1",
  port,
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
