#include "lib/stats/stats_months.h"

#include "lib/db/named_lock.h"
#include "lib/db/transaction.h"
#include "lib/stats/stats_range.h"
#include "lib/util/time_format.h"

namespace placard::db {

namespace {

// A month's daily totals: the placement rows (every event has exactly one placement).
constexpr const char* kMonthTotals =
    "SELECT DATE_SUB(day, INTERVAL DAYOFMONTH(day) - 1 DAY) AS month, SUM(impressions) AS i, "
    "SUM(clicks) AS c, SUM(ignored_impressions) AS ii, SUM(ignored_clicks) AS ic "
    "FROM stats_daily WHERE dim = 'placement' AND day BETWEEN ? AND ? GROUP BY 1";

struct Candidate {
  std::int64_t month = 0;
  std::optional<std::int64_t> days_through;  // none: nothing of it built yet
  bool stale = false;
};

// The newest sealed month whose days are not all added, or whose added days changed since.
std::optional<Candidate> next_candidate(MysqlSession& s, std::int64_t before) {
  auto& st = s.prepared(
      "SELECT DATE_FORMAT(d.month, '%Y-%m-%d'), DATE_FORMAT(m.days_through, '%Y-%m-%d'), "
      "m.month IS NOT NULL AND (m.impressions <> d.i OR m.clicks <> d.c OR "
      "m.ignored_impressions <> d.ii OR m.ignored_clicks <> d.ic) "
      "FROM (SELECT DATE_SUB(s.day, INTERVAL DAYOFMONTH(s.day) - 1 DAY) AS month, "
      "MAX(s.day) AS last_day, SUM(IF(s.day <= b.days_through, s.impressions, 0)) AS i, "
      "SUM(IF(s.day <= b.days_through, s.clicks, 0)) AS c, "
      "SUM(IF(s.day <= b.days_through, s.ignored_impressions, 0)) AS ii, "
      "SUM(IF(s.day <= b.days_through, s.ignored_clicks, 0)) AS ic FROM stats_daily s "
      "LEFT JOIN stats_months b ON b.month = DATE_SUB(s.day, INTERVAL DAYOFMONTH(s.day) - 1 DAY) "
      "WHERE s.dim = 'placement' AND s.day < ? GROUP BY 1) d "
      "LEFT JOIN stats_months m ON m.month = d.month "
      "WHERE m.month IS NULL OR m.days_through < d.last_day OR m.impressions <> d.i OR "
      "m.clicks <> d.c OR m.ignored_impressions <> d.ii OR m.ignored_clicks <> d.ic "
      "ORDER BY d.month DESC LIMIT 1");
  st.setString(1, util::format_date(before));
  const auto rs = query(st);
  if (!rs->next()) return std::nullopt;
  Candidate c;
  c.month = util::parse_date(rs->getString(1).asStdString()).value_or(0);
  if (!rs->isNull(2)) c.days_through = util::parse_date(rs->getString(2).asStdString());
  c.stale = rs->getInt(3) != 0;
  return c;
}

// The month's first day with rows after `after` (or from its start).
std::optional<std::int64_t> next_day(MysqlSession& s, const Candidate& c) {
  auto& st = s.prepared(
      "SELECT DATE_FORMAT(MIN(day), '%Y-%m-%d') FROM stats_daily WHERE dim = 'placement' AND "
      "day >= ? AND day < ?");
  st.setString(1, util::format_date(c.days_through ? *c.days_through + kDaySeconds : c.month));
  st.setString(2, util::format_date(next_month_start(c.month)));
  const auto rs = query(st);
  if (!rs->next() || rs->isNull(1)) return std::nullopt;
  return util::parse_date(rs->getString(1).asStdString());
}

void clear_month(MysqlSession& s, std::int64_t month) {
  Transaction tx(s);
  for (const char* sql :
       {"DELETE FROM stats_monthly WHERE month = ?", "DELETE FROM stats_months WHERE month = ?"}) {
    auto& st = s.prepared(sql);
    st.setString(1, util::format_date(month));
    st.executeUpdate();
  }
  tx.commit();
}

// "t.c = t.c + VALUES(c), ..." for the four counters of a rollup table t.
std::string add_counters(const std::string& table) {
  std::string out;
  for (const char* c : {"impressions", "clicks", "ignored_impressions", "ignored_clicks"}) {
    if (!out.empty()) out += ", ";
    out.append(table).append(".").append(c).append(" = ").append(table).append(".").append(c);
    out.append(" + VALUES(").append(c).append(")");
  }
  return out;
}

// Every dim named, so the primary key (dim, day, item) finds the day's rows without a scan.
void add_day(MysqlSession& s, std::int64_t month, std::int64_t day) {
  const std::string m = util::format_date(month);
  const std::string d = util::format_date(day);
  Transaction tx(s);
  auto& rows = s.prepared(
      "INSERT INTO stats_monthly (dim, month, item, impressions, clicks, ignored_impressions, "
      "ignored_clicks) SELECT dim, ?, item, impressions, clicks, ignored_impressions, "
      "ignored_clicks FROM stats_daily WHERE dim IN ('offer', 'placement', 'country') AND "
      "day = ? ON DUPLICATE KEY UPDATE " +
      add_counters("stats_monthly"));
  rows.setString(1, m);
  rows.setString(2, d);
  rows.executeUpdate();
  auto& totals = s.prepared(
      "INSERT INTO stats_months (month, days_through, impressions, clicks, ignored_impressions, "
      "ignored_clicks) SELECT ?, ?, COALESCE(SUM(impressions), 0), COALESCE(SUM(clicks), 0), "
      "COALESCE(SUM(ignored_impressions), 0), COALESCE(SUM(ignored_clicks), 0) FROM stats_daily "
      "WHERE dim = 'placement' AND day = ? ON DUPLICATE KEY UPDATE "
      "days_through = VALUES(days_through), built_at = UTC_TIMESTAMP(), " +
      add_counters("stats_months"));
  totals.setString(1, m);
  totals.setString(2, d);
  totals.setString(3, d);
  totals.executeUpdate();
  tx.commit();
}

}  // namespace

int build_months(MysqlSession& session, std::int64_t sealed_until_day,
                 std::chrono::milliseconds budget) {
  const std::int64_t before = month_start(sealed_until_day + kDaySeconds);
  const auto end = std::chrono::steady_clock::now() + budget;
  return session.run(false, [&](MysqlSession& s) {
    int steps = 0;
    // Asked first without the lock, whose lease is a write: most passes find nothing to do.
    if (!next_candidate(s, before)) return steps;
    const NamedLock lock(s, "placard.stats_months");
    if (!lock.held()) return steps;
    while (std::chrono::steady_clock::now() < end) {
      const auto c = next_candidate(s, before);
      if (!c) break;
      if (c->stale) {
        clear_month(s, c->month);
      } else if (const auto day = next_day(s, *c)) {
        add_day(s, c->month, *day);
      } else {
        break;  // cannot happen: a candidate has a day left (defensive, never loop for nothing)
      }
      ++steps;
    }
    return steps;
  });
}

std::set<std::int64_t> usable_months(MysqlSession& s, const std::vector<std::int64_t>& months) {
  std::set<std::int64_t> out;
  if (months.empty()) return out;
  auto& st =
      s.prepared(std::string("SELECT DATE_FORMAT(d.month, '%Y-%m-%d') FROM (") + kMonthTotals +
                 ") d JOIN stats_months m ON m.month = d.month "
                 "WHERE m.impressions = d.i AND m.clicks = d.c AND "
                 "m.ignored_impressions = d.ii AND m.ignored_clicks = d.ic");
  st.setString(1, util::format_date(months.front()));
  st.setString(2, util::format_date(next_month_start(months.back()) - kDaySeconds));
  const auto rs = query(st);
  while (rs->next()) {
    if (const auto m = util::parse_date(rs->getString(1).asStdString())) out.insert(*m);
  }
  // A month without a single event has nothing to read either way.
  return out;
}

}  // namespace placard::db
