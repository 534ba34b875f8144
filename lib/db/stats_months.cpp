#include "lib/db/stats_months.h"

#include "lib/db/named_lock.h"
#include "lib/db/stats_range.h"
#include "lib/db/transaction.h"
#include "lib/util/time_format.h"

namespace placard::db {

namespace {

// A month's daily totals: the placement rows (every event has exactly one placement).
constexpr const char* kMonthTotals =
    "SELECT DATE_SUB(day, INTERVAL DAYOFMONTH(day) - 1 DAY) AS month, SUM(impressions) AS i, "
    "SUM(clicks) AS c FROM stats_daily WHERE dim = 'placement' AND day BETWEEN ? AND ? GROUP BY 1";

}  // namespace

std::optional<std::int64_t> build_next_month(MysqlSession& session, std::int64_t sealed_until_day) {
  const std::int64_t before = month_start(sealed_until_day + kDaySeconds);
  return session.run(false, [&](MysqlSession& s) -> std::optional<std::int64_t> {
    const NamedLock lock(s, "placard.stats_months");
    if (!lock.held()) return std::nullopt;
    std::optional<std::int64_t> month;
    {
      auto& st =
          s.prepared(std::string("SELECT DATE_FORMAT(d.month, '%Y-%m-%d') FROM (") + kMonthTotals +
                     ") d LEFT JOIN stats_months m ON m.month = d.month "
                     "WHERE m.month IS NULL OR m.impressions <> d.i OR m.clicks <> d.c "
                     "ORDER BY d.month DESC LIMIT 1");
      st.setString(1, "1000-01-01");
      st.setString(2, util::format_date(before - kDaySeconds));
      const auto rs = query(st);
      if (rs->next()) month = util::parse_date(rs->getString(1).asStdString());
    }
    if (!month) return std::nullopt;
    const std::string first = util::format_date(*month);
    const std::string last = util::format_date(next_month_start(*month) - kDaySeconds);
    Transaction tx(s);
    auto& clear = s.prepared("DELETE FROM stats_monthly WHERE month = ?");
    clear.setString(1, first);
    clear.executeUpdate();
    auto& fill = s.prepared(
        "INSERT INTO stats_monthly (dim, month, item, impressions, clicks) "
        "SELECT dim, ?, item, SUM(impressions), SUM(clicks) FROM stats_daily "
        "WHERE day BETWEEN ? AND ? GROUP BY dim, item");
    fill.setString(1, first);
    fill.setString(2, first);
    fill.setString(3, last);
    fill.executeUpdate();
    auto& note = s.prepared(
        "REPLACE INTO stats_months (month, impressions, clicks, built_at) "
        "SELECT ?, COALESCE(SUM(impressions), 0), COALESCE(SUM(clicks), 0), UTC_TIMESTAMP() "
        "FROM stats_daily WHERE dim = 'placement' AND day BETWEEN ? AND ?");
    note.setString(1, first);
    note.setString(2, first);
    note.setString(3, last);
    note.executeUpdate();
    tx.commit();
    return month;
  });
}

std::set<std::int64_t> usable_months(MysqlSession& s, const std::vector<std::int64_t>& months) {
  std::set<std::int64_t> out;
  if (months.empty()) return out;
  auto& st =
      s.prepared(std::string("SELECT DATE_FORMAT(d.month, '%Y-%m-%d') FROM (") + kMonthTotals +
                 ") d JOIN stats_months m ON m.month = d.month "
                 "WHERE m.impressions = d.i AND m.clicks = d.c");
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
