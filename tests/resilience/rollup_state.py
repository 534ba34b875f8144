"""The counting state of a stack's database, for `make chaos` and `make soak`: do the rollups count
every raw row once (docs/architecture.md, "Statistics"), and are the spans each pass keeps for its
late look (`rollup_spans`, lib/jobs/late_rows.h) looked at and dropped, not left to pile up?

Both runs start their stacks with LATE_CHECK_S instead of the default 60 s, so that the look runs
many times within a run (a 30 s soak included) and a span that is never dropped shows in minutes.
"""

import time

LATE_CHECK_S = 5
STACK_CONF = {"rollup.late_check_seconds": str(LATE_CHECK_S)}

# One statement, so that every figure is read from one snapshot: the raw rows counted and
# ignored (rate_limited by the pass itself), the rollup's sums over the placement rows (every
# event has one placement), whether the progress reached every row, and the kept spans.
_STATE_SQL = """
SELECT
  (SELECT COUNT(*) FROM impressions WHERE ignored IS NULL),
  (SELECT COUNT(*) FROM impressions WHERE ignored IS NOT NULL),
  (SELECT COUNT(*) FROM clicks WHERE ignored IS NULL),
  (SELECT COUNT(*) FROM clicks WHERE ignored IS NOT NULL),
  (SELECT COALESCE(SUM(impressions), 0) FROM stats_daily WHERE dim = 'placement'),
  (SELECT COALESCE(SUM(ignored_impressions), 0) FROM stats_daily WHERE dim = 'placement'),
  (SELECT COALESCE(SUM(clicks), 0) FROM stats_daily WHERE dim = 'placement'),
  (SELECT COALESCE(SUM(ignored_clicks), 0) FROM stats_daily WHERE dim = 'placement'),
  (SELECT COALESCE(MAX(id), 0) FROM impressions)
      <= (SELECT COALESCE(MAX(last_id), 0) FROM rollup_progress WHERE name = 'impressions'),
  (SELECT COALESCE(MAX(id), 0) FROM clicks)
      <= (SELECT COALESCE(MAX(last_id), 0) FROM rollup_progress WHERE name = 'clicks'),
  (SELECT COUNT(*) FROM rollup_spans),
  (SELECT COALESCE(TIMESTAMPDIFF(MICROSECOND, MIN(counted_at), UTC_TIMESTAMP(3)), 0) / 1e6
     FROM rollup_spans),
  (SELECT COALESCE(TIMESTAMPDIFF(MICROSECOND, MIN(counted_at), MAX(counted_at)), 0) / 1e6
     FROM rollup_spans)
"""
_FIELDS = ("impressions", "ignored_impressions", "clicks", "ignored_clicks",
           "rolled_impressions", "rolled_ignored_impressions", "rolled_clicks", "rolled_ignored_clicks",
           "impressions_done", "clicks_done", "spans", "oldest_span_s", "span_spread_s")


def read(stack):
    """The state as a dict of _FIELDS (counts as int, the two progress flags as bool; in seconds,
    as float, 0 when no span is kept: the oldest kept span's age, and how much older it is than
    the newest)."""
    row = stack.db(_STATE_SQL)[0]
    state = dict(zip(_FIELDS, row))
    for k in _FIELDS:
        if k.endswith("_done"):
            state[k] = state[k] == "1"
        elif k.endswith("_s"):
            state[k] = float(state[k])
        else:
            state[k] = int(state[k])
    return state


def exact(state):
    """Every raw row counted once, each on its side (counted or ignored), and nothing left."""
    return (state["impressions_done"] and state["clicks_done"]
            and state["rolled_impressions"] == state["impressions"]
            and state["rolled_ignored_impressions"] == state["ignored_impressions"]
            and state["rolled_clicks"] == state["clicks"]
            and state["rolled_ignored_clicks"] == state["ignored_clicks"])


def settle(stack, timeout):
    """Waits (after the load stopped) until the rollups are exact(); returns (the last state read,
    seconds it took or None when they were not within `timeout`)."""
    t0 = time.monotonic()
    while True:
        state = read(stack)
        if exact(state):
            return state, time.monotonic() - t0
        if time.monotonic() - t0 >= timeout:
            return state, None
        time.sleep(0.2)


def describe(state):
    return ("impressions %d counted + %d ignored in the raw table, %d + %d in stats_daily; clicks "
            "%d + %d, %d + %d; progress past every row: %s, %s"
            % (state["impressions"], state["ignored_impressions"], state["rolled_impressions"],
               state["rolled_ignored_impressions"], state["clicks"], state["ignored_clicks"],
               state["rolled_clicks"], state["rolled_ignored_clicks"], state["impressions_done"],
               state["clicks_done"]))
