-- One wrk script for every step of `make bench` (scripts/bench.sh), driven by the environment:
--
--   BENCH_MODE     plain       wrk's own request (URL and -H headers from the command line)
--                  body        POST to the URL's path; each line of BENCH_LINES is a JSON body
--                  impression  POST to the URL's path; each line is a token, sent as
--                              {"impressionToken":"<line>"}
--                  path        GET; each line of BENCH_LINES is a path (with query string)
--   BENCH_LINES    file with one item per line (not for plain)
--   BENCH_THREADS  wrk's -t, so that each thread takes its own share of the lines (line i goes
--                  to thread i mod BENCH_THREADS): fresh tokens are never sent twice unless a
--                  thread runs out and starts over, which is counted as "reused"
--   BENCH_CLIENTS  0 (default): every request comes from wrk's one address; N > 0: line i
--                  carries "X-Forwarded-For: 10.x.y.z", the (i mod N)-th address of 10.0.0.0/8
--                  (the bench stack trusts 127.0.0.1 as a proxy), so the events come from N
--                  clients, as real traffic does, instead of one client over its limits
--   BENCH_START_MARK  a file that must not exist yet (default: wrk-start-<pid> in TMPDIR or /tmp):
--                  made once every thread's lines are ready, see "One start" below
--   BENCH_COUNT    comma-separated extras counted from the bodies of 200 answers:
--                  offers (occurrences of "impressionToken" in every 8th 200 answer: scanning
--                  every body would cost wrk enough CPU to slow the server it shares the cores
--                  with), words (recorded / duplicate)
--
-- Every answer is counted by status in a response() hook, so that any answer other than
-- 2xx/3xx shows up even where wrk only counts >= 400. done() prints one line
--   BENCHJSON {...}
-- with requests, duration, bytes, socket errors, latency percentiles (microseconds) and the
-- counts; scripts/bench.sh collects it for bench/report.py.

local mode = os.getenv("BENCH_MODE") or "plain"
local lines_file = os.getenv("BENCH_LINES") or ""
local nthreads = tonumber(os.getenv("BENCH_THREADS") or "1") or 1
local count = os.getenv("BENCH_COUNT") or ""
local clients = tonumber(os.getenv("BENCH_CLIENTS") or "0") or 0
local count_offers = string.find(count, "offers", 1, true) ~= nil
local count_words = string.find(count, "words", 1, true) ~= nil

-- ---- One start for every thread -------------------------------------------------------------
-- wrk prepares its threads one after the other, each init() running just before that thread
-- starts, and starts its clock after the last one: thread 0 sends while the others still read
-- their lines, and what it answers then is counted over a duration that does not include it.
-- With the event steps' token files (~380,000 lines in a 10 s step, ~0.4 s of init a thread)
-- that flattered their req/s by several per cent against the plain steps. So the last thread to
-- be prepared makes the start mark, and every thread's first request waits for it. The CPU spent
-- until then (os.clock: the whole process) is reported as init_cpu_us, apart from the run's.
local ffi = require("ffi")
ffi.cdef([[
int poll(void *fds, unsigned long nfds, int timeout);
int getpid(void);
]])
local start_mark = os.getenv("BENCH_START_MARK") or
  ((os.getenv("TMPDIR") or "/tmp") .. "/wrk-start-" .. ffi.C.getpid())

-- ---- main thread: hand out thread ids, keep the threads for done() ----------------------

local threads = {}
local next_tid = 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
  table.insert(threads, thread)
end

-- ---- request threads ---------------------------------------------------------------------

-- Per-thread state (each wrk thread has its own Lua state).
counts = {}     -- status -> answers
offers = 0      -- offers in the sampled 200 answers (BENCH_COUNT=offers)
sampled = 0     -- 200 answers whose offers were counted
local ok_answers = 0
recorded = 0    -- answers saying "recorded" (BENCH_COUNT=words)
duplicate = 0   -- answers saying "duplicate"
reused = 0      -- requests sent after this thread's lines ran out (line sent again)
lines = 0       -- lines this thread owns
init_cpu_us = 0 -- the process's CPU time when the last thread was ready (last thread only)

local reqs = {}
local n = 0
local pos = 0
local wrapped = false
local started = false
local checking = false  -- thread 0: wrk calls request() once itself, before any thread runs

local function json_headers()
  local h = {}
  for k, v in pairs(wrk.headers) do h[k] = v end
  h["Content-Type"] = "application/json"
  return h
end

function init(args)
  if mode == "plain" then return end
  local my = tid or 0
  if my == 0 then
    local stale = io.open(start_mark, "r")
    if stale then
      stale:close()
      error("the start mark exists before the run (left by another?): " .. start_mark)
    end
  end
  local path = wrk.path
  local headers = (mode == "path") and wrk.headers or json_headers()
  local i = 0
  local base = headers
  for line in io.lines(lines_file) do
    if line ~= "" then
      if i % nthreads == my then
        if clients > 0 then
          local k = i % clients
          headers = {}
          for hk, hv in pairs(base) do headers[hk] = hv end
          headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(k / 65536) % 256,
                                                     math.floor(k / 256) % 256, k % 256)
        end
        local r
        if mode == "body" then
          r = wrk.format("POST", path, headers, line)
        elseif mode == "impression" then
          r = wrk.format("POST", path, headers, '{"impressionToken":"' .. line .. '"}')
        elseif mode == "path" then
          r = wrk.format("GET", line, headers)
        else
          error("unknown BENCH_MODE " .. mode)
        end
        n = n + 1
        reqs[n] = r
      end
      i = i + 1
    end
  end
  lines = n
  if n == 0 then error("no lines for thread " .. my .. " in " .. lines_file) end
  checking = my == 0
  if my == nthreads - 1 then
    init_cpu_us = os.clock() * 1e6
    local f = assert(io.open(start_mark, "w"))
    f:close()
  end
end

local function wait_for_start()
  for _ = 1, 60000 do
    local f = io.open(start_mark, "r")
    if f then
      f:close()
      return
    end
    ffi.C.poll(nil, 0, 1)
  end
  error("no start mark after 60 s: " .. start_mark)
end

if mode ~= "plain" then
  function request()
    if not started then
      if checking then
        checking = false
        return reqs[1]
      end
      wait_for_start()
      started = true
    end
    pos = pos + 1
    if pos > n then
      pos = 1
      wrapped = true
    end
    if wrapped then reused = reused + 1 end
    return reqs[pos]
  end
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  if status == 200 and body then
    ok_answers = ok_answers + 1
    if count_offers and ok_answers % 8 == 1 then
      local _, k = string.gsub(body, '"impressionToken"', "")
      offers = offers + k
      sampled = sampled + 1
    end
    if count_words then
      if string.find(body, '"recorded"', 1, true) then
        recorded = recorded + 1
      elseif string.find(body, '"duplicate"', 1, true) then
        duplicate = duplicate + 1
      end
    end
  end
end

-- ---- main thread: one JSON line ----------------------------------------------------------

local function num(x) return string.format("%.0f", x) end

function done(summary, latency, requests)
  local status = {}
  os.remove(start_mark)
  local totals = { offers = 0, sampled = 0, recorded = 0, duplicate = 0, reused = 0, lines = 0,
                   init_cpu_us = 0 }
  for _, t in ipairs(threads) do
    local c = t:get("counts") or {}
    for k, v in pairs(c) do status[k] = (status[k] or 0) + v end
    for name, _ in pairs(totals) do totals[name] = totals[name] + (t:get(name) or 0) end
  end
  local parts = {}
  for k, v in pairs(status) do table.insert(parts, string.format('"%d":%s', k, num(v))) end
  local e = summary.errors
  local out = {
    '"requests":' .. num(summary.requests),
    '"duration_us":' .. num(summary.duration),
    '"bytes":' .. num(summary.bytes),
    '"errors":{"connect":' .. num(e.connect) .. ',"read":' .. num(e.read) .. ',"write":' ..
      num(e.write) .. ',"status":' .. num(e.status) .. ',"timeout":' .. num(e.timeout) .. '}',
    '"latency_us":{"p50":' .. num(latency:percentile(50)) .. ',"p90":' .. num(latency:percentile(90)) ..
      ',"p99":' .. num(latency:percentile(99)) .. ',"p999":' .. num(latency:percentile(99.9)) ..
      ',"max":' .. num(latency.max) .. ',"mean":' .. num(latency.mean) .. '}',
    '"status":{' .. table.concat(parts, ",") .. '}',
  }
  for name, v in pairs(totals) do table.insert(out, string.format('"%s":%s', name, num(v))) end
  io.write("BENCHJSON {" .. table.concat(out, ",") .. "}\n")
end
