-- wrk script of `npm run bench`: the request from the environment (set by bench/load.ts),
-- and one JSON line with the totals and latencies at the end, for load.ts to read. No
-- `response` hook: wrk then parses no answer for the script, and stays cheap.
wrk.method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
if body ~= nil and body ~= "" then wrk.body = body end
for line in (os.getenv("BENCH_HEADERS") or ""):gmatch("[^\n]+") do
  local name, value = line:match("^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end

-- BENCH_REQUESTS: a folder where thread k finds its requests in `requests.<k>`, one a line
-- (`path<TAB>token<TAB>body number`, 0 for none), and `bodies` holds the bodies, one a line.
-- Each thread asks its lines in turn, from the first, and again from the first at the end.
-- The lines are read as they are first asked, not before the run: wrk starts the first
-- thread before it prepares the second and its clock after both, so a long preparation
-- would give the first thread requests outside the measured time. A request is formatted
-- when first asked and kept: later rounds cost one table lookup.
local folder = os.getenv("BENCH_REQUESTS")
if folder ~= nil and folder ~= "" then
  local started = 0
  setup = function(thread)
    thread:set("id", started)
    started = started + 1
  end

  local bodies = {}
  local file = nil
  local formatted = {}
  -- Requests read so far, and the one asked last.
  local count = 0
  local position = 0
  init = function()
    for line in io.lines(folder .. "/bodies") do bodies[#bodies + 1] = line end
    file = io.open(folder .. "/requests." .. id, "r")
  end

  local function format(line)
    local path, token, number = line:match("^([^\t]*)\t([^\t]*)\t(%d+)$")
    local headers = {}
    for name, value in pairs(wrk.headers) do headers[name] = value end
    headers["authorization"] = "Bearer " .. token
    local body = bodies[tonumber(number)]
    -- A line with a body of its own is a POST (a mixed rotation's submissions).
    local method = nil
    if body ~= nil then
      headers["content-type"] = "application/json"
      method = "POST"
    end
    return wrk.format(method, path, headers, body or wrk.body)
  end

  request = function()
    if file ~= nil then
      local line = file:read("*l")
      if line ~= nil then
        count = count + 1
        formatted[count] = format(line)
        position = count
        return formatted[count]
      end
      file:close()
      file = nil
    end
    position = (position % count) + 1
    return formatted[position]
  end
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '\n{"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"mean_us":%.1f,"p50_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency.mean, latency:percentile(50), latency:percentile(99), latency.max))
end
