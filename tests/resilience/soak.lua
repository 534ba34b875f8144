-- wrk script of `make soak` (tests/resilience/soak.py): the public API's mix at a paced rate.
--
--   SOAK_LINES    files of "kind<TAB>payload" lines, SOAK_LINES.<i> for wrk thread i (0-based),
--                 made by soak.py:
--                   get         payload: a path (config, categories)
--                   query       payload: a JSON body for POST /api/v1/offers/query
--                   impression  payload: an impression token
--                   click       payload: a click path /r/click/<id>?t=<token>
--                 each thread reads its file a line per request (nothing is loaded up front: a
--                 full soak's files hold a gigabyte); one that runs out starts over (repeated
--                 impressions answer "duplicate", repeated clicks redirect again)
--   SOAK_THREADS  wrk's -t
--   SOAK_RATE     requests per second over all threads; 0 = as fast as the server answers (the
--                 capacity probe). Each thread hands out send times 1/(rate/threads) apart to its
--                 connections, through wrk's delay() hook (a token bucket: after a stall the
--                 thread catches up at most 250 ms of sends).
--
-- done() prints one line: SOAKJSON {"requests", "duration_us", "statuses": {...}, "errors":
-- {connect, read, write, status, timeout}, "latency_us": {p50, p99, p999, max}, "reused"}.

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } soak_timespec;
  int clock_gettime(int clk_id, soak_timespec* tp);
]]
local ts = ffi.new("soak_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local lines_file = os.getenv("SOAK_LINES") or ""
local nthreads = tonumber(os.getenv("SOAK_THREADS") or "1") or 1
local rate = tonumber(os.getenv("SOAK_RATE") or "0") or 0

local threads = {}
local next_tid = 0
function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
  table.insert(threads, thread)
end

counts = {}
reused = 0
local file = nil
local interval = 0
local next_slot = 0
local json = { ["Content-Type"] = "application/json" }

function init(args)
  local path = lines_file .. "." .. (tid or 0)
  file = assert(io.open(path, "r"))
  if rate > 0 then interval = 1000.0 * nthreads / rate end
end

local function next_line()
  local line = file:read("*l")
  if line == nil then
    reused = reused + 1
    file:seek("set", 0)
    line = file:read("*l")
    if line == nil then error("soak.lua: no lines in " .. lines_file .. "." .. (tid or 0)) end
  end
  return line
end

function request()
  local line = next_line()
  local tab = string.find(line, "\t", 1, true)
  local kind, payload = string.sub(line, 1, tab - 1), string.sub(line, tab + 1)
  if kind == "get" or kind == "click" then
    return wrk.format("GET", payload)
  elseif kind == "query" then
    return wrk.format("POST", "/api/v1/offers/query", json, payload)
  end
  return wrk.format("POST", "/api/v1/events/impression", json,
    '{"impressionToken":"' .. payload .. '"}')
end

function delay()
  if interval <= 0 then return 0 end
  local t = now_ms()
  -- Behind (the server or this machine stalled): catch up, but with at most 250 ms of backlog.
  if next_slot < t - 250 then next_slot = t - 250 end
  local wait = next_slot - t
  next_slot = next_slot + interval
  return math.floor(wait)
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
  local statuses = {}
  for _, t in ipairs(threads) do
    local c = t:get("counts")
    for k, v in pairs(c) do statuses[k] = (statuses[k] or 0) + v end
  end
  local reuse = 0
  for _, t in ipairs(threads) do reuse = reuse + (t:get("reused") or 0) end
  local parts = {}
  for k, v in pairs(statuses) do table.insert(parts, string.format('"%d":%d', k, v)) end
  local e = summary.errors
  io.write(string.format(
    'SOAKJSON {"requests":%d,"duration_us":%d,"statuses":{%s},"errors":{"connect":%d,' ..
    '"read":%d,"write":%d,"status":%d,"timeout":%d},"latency_us":{"p50":%d,"p99":%d,' ..
    '"p999":%d,"max":%d},"reused":%d}\n',
    summary.requests, summary.duration, table.concat(parts, ","), e.connect, e.read, e.write,
    e.status, e.timeout, latency:percentile(50), latency:percentile(99),
    latency:percentile(99.9), latency.max, reuse))
end
