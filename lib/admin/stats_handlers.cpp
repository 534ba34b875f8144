#include "lib/admin/stats_handlers.h"

#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/http/api_error.h"
#include "lib/json/writer.h"
#include "lib/util/time_format.h"

namespace placard::admin {

namespace {

constexpr std::int64_t kDay = 86400;

std::int64_t required_day(const std::map<std::string, std::string, std::less<>>& params,
                          const std::string& name, std::string& text) {
  const auto it = params.find(name);
  if (it == params.end()) throw http::missing_field(name);
  const auto day = util::parse_date(it->second);
  if (!day) throw http::invalid_field(name, name + " must be a date YYYY-MM-DD");
  text = it->second;
  return *day;
}

// A number as JSON writes it (shortest form that reads back exactly).
std::string number_text(double v) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.Double(v);
  return json::to_string(buf);
}

void write_counts(json::Writer& w, const db::StatsCounts& c) {
  w.Key("impressions");
  w.Uint64(c.impressions);
  w.Key("clicks");
  w.Uint64(c.clicks);
  w.Key("ctr");
  w.Double(click_through_rate(c));
  // Answered but not counted (issue 15): beside the counted figures, never inside them.
  w.Key("ignoredImpressions");
  w.Uint64(c.ignored_impressions);
  w.Key("ignoredClicks");
  w.Uint64(c.ignored_clicks);
}

void write_by_reason(json::Writer& w, const std::array<std::uint64_t, db::kIgnoredReasons>& n) {
  w.StartObject();
  for (const auto r : {db::IgnoredReason::prefetch, db::IgnoredReason::head, db::IgnoredReason::bot,
                       db::IgnoredReason::rate_limited}) {
    const auto name = db::ignored_reason_name(r);
    w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    w.Uint64(n[db::reason_index(r)]);
  }
  w.EndObject();
}

void append_csv_field(std::string& out, const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) {
    out += field;
    return;
  }
  out += '"';
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

StatsQuery parse_stats_query(const http::Request& request) {
  const auto params = parse_query_params(request, {"from", "to", "groupBy", "format"});
  StatsQuery q;
  q.from_day = required_day(params, "from", q.from);
  q.to_day = required_day(params, "to", q.to);
  if (q.from_day > q.to_day) throw http::invalid_field("from", "from is after to");
  if ((q.to_day - q.from_day) / kDay + 1 > kMaxStatsDays) {
    throw http::invalid_field("to", "The range is longer than 366 days");
  }
  if (const auto it = params.find("groupBy"); it != params.end()) {
    q.group_name = it->second;
    if (it->second == "day") {
      q.group = db::StatsGroup::day;
    } else if (it->second == "placement") {
      q.group = db::StatsGroup::placement;
    } else if (it->second == "offer") {
      q.group = db::StatsGroup::offer;
    } else if (it->second == "country") {
      q.group = db::StatsGroup::country;
    } else {
      throw http::invalid_field("groupBy", "groupBy must be day, placement, offer or country");
    }
  }
  if (const auto it = params.find("format"); it != params.end()) {
    if (it->second != "csv" && it->second != "json") {
      throw http::invalid_field("format", "format must be json or csv");
    }
    q.csv = it->second == "csv";
  }
  return q;
}

std::vector<db::StatsRow> every_day(std::int64_t from_day, std::int64_t to_day,
                                    const std::vector<db::StatsRow>& days_with_events) {
  std::vector<db::StatsRow> out;
  auto it = days_with_events.begin();
  for (std::int64_t d = from_day; d <= to_day; d += kDay) {
    db::StatsRow row{util::format_date(d), {}};
    while (it != days_with_events.end() && it->key < row.key) ++it;  // both in date order
    if (it != days_with_events.end() && it->key == row.key) row.counts = it->counts;
    out.push_back(std::move(row));
  }
  return out;
}

double click_through_rate(const db::StatsCounts& c) {
  return c.impressions == 0 ? 0.0
                            : static_cast<double>(c.clicks) / static_cast<double>(c.impressions);
}

std::string stats_json(const StatsQuery& q, const db::StatsReport& report) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("from");
  w.String(q.from);
  w.Key("to");
  w.String(q.to);
  w.Key("groupBy");
  w.String(q.group_name);
  w.Key("rows");
  w.StartArray();
  for (const auto& row : report.rows) {
    w.StartObject();
    w.Key("key");
    w.String(row.key);
    write_counts(w, row.counts);
    w.EndObject();
  }
  w.EndArray();
  w.Key("totals");
  w.StartObject();
  write_counts(w, report.totals);
  w.Key("ignored");
  w.StartObject();
  w.Key("impressions");
  write_by_reason(w, report.ignored.impressions);
  w.Key("clicks");
  write_by_reason(w, report.ignored.clicks);
  w.EndObject();
  w.EndObject();
  w.EndObject();
  return json::to_string(buf);
}

std::string stats_csv(const db::StatsReport& report) {
  std::string out = "key,impressions,clicks,ctr\r\n";
  for (const auto& row : report.rows) {
    append_csv_field(out, row.key);
    out += ',' + std::to_string(row.counts.impressions) + ',' + std::to_string(row.counts.clicks) +
           ',' + number_text(click_through_rate(row.counts)) + "\r\n";
  }
  return out;
}

http::Response stats_response(const StatsQuery& q, db::StatsStore& store) {
  db::StatsReport report = store.report(q.group, q.from_day, q.to_day, kMaxStatsRows);
  if (q.group == db::StatsGroup::day) report.rows = every_day(q.from_day, q.to_day, report.rows);
  if (!q.csv) return ok(stats_json(q, report));
  http::Response r;
  r.status = 200;
  r.body = stats_csv(report);
  r.set_header("Content-Type", "text/csv; charset=utf-8");
  r.set_header("Content-Disposition", "attachment; filename=\"placard-stats-" + q.from + "-" +
                                          q.to + "-" + q.group_name + ".csv\"");
  return r;
}

std::string background_json(const std::vector<db::BackgroundRun>& runs) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("jobs");
  w.StartArray();
  for (const char* job : {"rollup", "retention", "sync"}) {
    const db::BackgroundRun* run = nullptr;
    for (const auto& r : runs) {
      if (r.job == job) run = &r;
    }
    w.StartObject();
    w.Key("job");
    w.String(job);
    w.Key("lastRunAt");
    write_time(w, run != nullptr ? std::optional<std::int64_t>(run->ran_at) : std::nullopt);
    w.Key("ok");
    if (run != nullptr) {
      w.Bool(run->ok);
    } else {
      w.Null();
    }
    w.Key("runner");
    write_string_or_null(w,
                         run != nullptr ? std::optional<std::string>(run->runner) : std::nullopt);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return json::to_string(buf);
}

void add_stats_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.read("/stats", [&ctx](http::Request& req, const Actor&) {
    return stats_response(parse_stats_query(req), ctx.stores.stats);
  });
  admin.read("/background", [&ctx](http::Request&, const Actor&) {
    return ok(background_json(ctx.stores.stats.background_runs()));
  });
}

}  // namespace placard::admin
