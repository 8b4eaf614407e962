-- wrk script of `npm run bench`: the request from the environment (set by bench/load.ts),
-- and one JSON line with the totals and latencies at the end, for load.ts to read.
wrk.method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
if body ~= nil and body ~= "" then wrk.body = body end
for line in (os.getenv("BENCH_HEADERS") or ""):gmatch("[^\n]+") do
  local name, value = line:match("^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end

-- BENCH_PATHS_FILE: paths, one a line, requested in turn instead of the URL's; each thread
-- starts at its own share of the list, so that two threads do not read the same path together.
local pathsFile = os.getenv("BENCH_PATHS_FILE")
if pathsFile ~= nil and pathsFile ~= "" then
  local paths = {}
  for line in io.lines(pathsFile) do
    if line ~= "" then paths[#paths + 1] = line end
  end
  local threads = tonumber(os.getenv("BENCH_THREADS") or "1")
  local started = 0
  setup = function(thread)
    thread:set("first", started * math.floor(#paths / threads))
    started = started + 1
  end
  local position = nil
  request = function()
    position = ((position or first or 0) % #paths) + 1
    return wrk.format(nil, paths[position])
  end
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '\n{"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"mean_us":%.1f,"p50_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency.mean, latency:percentile(50), latency:percentile(99), latency.max))
end
