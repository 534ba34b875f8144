// The table of administrator settings held in the database (catalog::stored_settings_table):
// every row round-trips through its stored text, the snapshot reader and PATCH's validation
// refuse bad values as they always did, and the defaults are those of the contract.

// GCC 12 warns inside libstdc++'s <regex> (std::function in its automaton "may be used
// uninitialized") when built with -fsanitize=address at -O2; with -Werror the sanitizer build of
// the unit tests stopped here. The warning is about the library's code, not this file's.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <functional>
#include <regex>

#include "lib/admin/body.h"
#include "lib/admin/settings_handlers.h"
#include "lib/admin/settings_rules.h"
#include "lib/catalog/settings.h"
#include "lib/db/migrations.h"
#include "lib/http/api_error.h"
#include "lib/util/read_file.h"

namespace {

using placard::admin::Body;
using placard::catalog::find_stored_setting;
using placard::catalog::parse_settings;
using placard::catalog::Settings;
using placard::catalog::stored_settings_table;
using placard::catalog::StoredType;
using placard::http::ApiError;
using placard::http::Request;

// The integer settings and their ranges, as the contract and docs/api.md give them.
struct Range {
  const char* name;
  std::int64_t min;
  std::int64_t max;
};
constexpr Range kRanges[] = {
    {"refreshIntervalSeconds", 60, 86400},    {"tokenTtlSeconds", 1, 2592000},
    {"sessionIdleMinutes", 1, 1440},          {"rawEventRetentionDays", 1, 3650},
    {"networkSyncIntervalMinutes", 0, 10080}, {"clickLimitPerMinute", 0, 10000},
    {"clickLimitPer10Minutes", 0, 10000},     {"clickLimitPerHour", 0, 10000},
    {"impressionLimitPer5Minutes", 0, 10000},
};

Request patch(const std::string& body) {
  Request r;
  r.method = "PATCH";
  r.path = "/admin/api/v1/settings";
  r.headers.push_back({"content-type", "application/json"});
  r.body = body;
  return r;
}

std::vector<std::string_view> all_names() {
  std::vector<std::string_view> names;
  for (const auto& row : stored_settings_table()) names.push_back(row.name);
  return names;
}

// The stored changes of a PATCH body, or "status code field: message" of its refusal.
std::string changes(const std::string& json) {
  try {
    auto r = patch(json);
    const Body body(r, all_names());
    std::string out;
    for (const auto& [k, v] : placard::admin::settings_changes(body)) {
      out.append(k).append("=").append(v).append(";");
    }
    return out;
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code() + " " + e.field() + ": " + e.what();
  }
}

// What Body itself answers for an integer out of range (the message PATCH gave before the table).
std::string integer_refusal(const Range& r, const std::string& json) {
  try {
    auto req = patch(json);
    const Body body(req, {r.name});
    (void)body.opt_integer(r.name, r.min, r.max);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code() + " " + e.field() + ": " + e.what();
  }
  return "ok";
}

TEST(StoredSettingsTable, NamesAreUniqueAndInAnswerOrder) {
  std::vector<std::string> names;
  for (const auto& row : stored_settings_table()) names.emplace_back(row.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "available", "refreshIntervalSeconds", "minExtensionVersion",
                       "allowedClientOrigins", "tokenTtlSeconds", "sessionIdleMinutes",
                       "rawEventRetentionDays", "networkSyncIntervalMinutes", "clickLimitPerMinute",
                       "clickLimitPer10Minutes", "clickLimitPerHour", "impressionLimitPer5Minutes",
                       "publicOrigin"}));
  for (const auto& n : names) EXPECT_EQ(find_stored_setting(n)->name, n);
  EXPECT_EQ(find_stored_setting("nope"), nullptr);
}

TEST(StoredSettingsTable, IntegerRangesAreTheContracts) {
  for (const auto& r : kRanges) {
    const auto* row = find_stored_setting(r.name);
    ASSERT_NE(row, nullptr) << r.name;
    EXPECT_EQ(row->type, StoredType::integer) << r.name;
    EXPECT_EQ(row->min, r.min) << r.name;
    EXPECT_EQ(row->max, r.max) << r.name;
  }
}

TEST(StoredSettingsTable, DefaultsAnswerAsTheContractSays) {
  EXPECT_EQ(placard::admin::settings_json(Settings{}),
            R"({"available":true,"refreshIntervalSeconds":900,"minExtensionVersion":"1.0.0",)"
            R"("allowedClientOrigins":[],"tokenTtlSeconds":86400,)"
            R"("sessionIdleMinutes":30,"rawEventRetentionDays":90,)"
            R"("networkSyncIntervalMinutes":0,"clickLimitPerMinute":1,"clickLimitPer10Minutes":3,)"
            R"("clickLimitPerHour":10,"impressionLimitPer5Minutes":5,"publicOrigin":null})");
  std::vector<std::string> problems;
  EXPECT_EQ(placard::admin::settings_json(parse_settings({}, problems)),
            placard::admin::settings_json(Settings{}));
  EXPECT_TRUE(problems.empty());
}

// Each row's stored text of a value, read back, is the same value; for every row, the default
// and a value that is not the default.
// The migrations seeded rows for the settings that existed then (a new one needs no seed: an
// absent row reads as its default); what they seeded is the table's default.
TEST(StoredSettingsTable, MigrationSeedsAreTheDefaults) {
  const std::regex insert(R"(INTO settings \(name, value\) VALUES([^;]*);)");
  const std::regex pair(R"(\('([A-Za-z0-9]+)', '([^']*)'\))");
  std::size_t seeded = 0;
  for (const auto& file : placard::db::list_migrations("sql")) {
    const auto text = placard::util::read_whole_file(file.path);
    ASSERT_TRUE(text.has_value()) << file.path;
    for (std::sregex_iterator i(text->begin(), text->end(), insert), end; i != end; ++i) {
      const std::string values = (*i)[1];
      for (std::sregex_iterator j(values.begin(), values.end(), pair); j != end; ++j) {
        const auto* row = find_stored_setting((*j)[1].str());
        ASSERT_NE(row, nullptr) << (*j)[1] << " seeded by " << file.name;
        EXPECT_EQ(row->get(Settings{}), (*j)[2].str()) << (*j)[1] << " in " << file.name;
        ++seeded;
      }
    }
  }
  EXPECT_GE(seeded, 13U);  // the rows seeded by 0001, 0002 and 0008
}

TEST(StoredSettingsTable, EveryRowRoundTrips) {
  const std::map<std::string, std::string> others = {
      {"available", "false"},
      {"minExtensionVersion", "2.3.4"},
      {"allowedClientOrigins", R"(["https://a.example","moz-extension://*"])"},
      {"publicOrigin", "https://offers.example.com"}};
  for (const auto& row : stored_settings_table()) {
    const std::string name(row.name);
    std::vector<std::string> values = {row.get(Settings{})};
    if (row.type == StoredType::integer) {
      values.push_back(std::to_string(row.min));
      values.push_back(std::to_string(row.max));
    } else {
      ASSERT_EQ(others.count(name), 1U) << name;
      values.push_back(others.at(name));
    }
    for (const auto& v : values) {
      Settings s;
      EXPECT_TRUE(row.put(s, row, v)) << name << "=" << v;
      EXPECT_EQ(row.get(s), v) << name;
      std::vector<std::string> problems;
      const Settings read = parse_settings({{name, v}}, problems);
      EXPECT_TRUE(problems.empty()) << name;
      EXPECT_EQ(row.get(read), v) << name;
    }
    EXPECT_NE(values.front(), values.back()) << name << ": no other value tried";
  }
}

TEST(StoredSettingsTable, BadStoredValuesKeepTheDefault) {
  for (const auto& r : kRanges) {
    for (const auto& bad : {std::to_string(r.min - 1), std::to_string(r.max + 1), std::string("x"),
                            std::string("")}) {
      std::vector<std::string> problems;
      const Settings s = parse_settings({{r.name, bad}}, problems);
      EXPECT_EQ(placard::admin::settings_json(s), placard::admin::settings_json(Settings{}))
          << r.name << "=" << bad;
      EXPECT_EQ(problems, std::vector<std::string>{"setting " + std::string(r.name) +
                                                   " has an invalid value; using the default"});
    }
  }
  std::vector<std::string> problems;
  const Settings s =
      parse_settings({{"available", "yes"}, {"minExtensionVersion", "1.2"}}, problems);
  EXPECT_TRUE(s.available);
  EXPECT_EQ(s.min_extension_version.to_string(), "1.0.0");
  EXPECT_EQ(problems.size(), 2U);
  problems.clear();
  const Settings closed = parse_settings({{"allowedClientOrigins", "[1]"}}, problems);
  EXPECT_TRUE(closed.allowed_client_origins_unreadable);
  EXPECT_EQ(problems, std::vector<std::string>{"setting allowedClientOrigins has an invalid value; "
                                               "refusing every Origin until it is fixed"});
}

TEST(StoredSettingsPatch, StoresEveryWritableRow) {
  EXPECT_EQ(changes(R"({"available":false,"refreshIntervalSeconds":60,)"
                    R"("minExtensionVersion":"01.2.3","allowedClientOrigins":)"
                    R"(["HTTPS://A.example:443","https://a.example"],"tokenTtlSeconds":5,)"
                    R"("sessionIdleMinutes":2,"rawEventRetentionDays":3,)"
                    R"("networkSyncIntervalMinutes":4,"clickLimitPerMinute":0,)"
                    R"("clickLimitPer10Minutes":6,"clickLimitPerHour":7,)"
                    R"("impressionLimitPer5Minutes":8})"),
            "allowedClientOrigins=[\"https://a.example\"];available=false;"
            "clickLimitPer10Minutes=6;clickLimitPerHour=7;clickLimitPerMinute=0;"
            "impressionLimitPer5Minutes=8;minExtensionVersion=1.2.3;"
            "networkSyncIntervalMinutes=4;rawEventRetentionDays=3;refreshIntervalSeconds=60;"
            "sessionIdleMinutes=2;tokenTtlSeconds=5;");
  EXPECT_EQ(changes("{}"), "");
}

TEST(StoredSettingsPatch, RefusesAsBefore) {
  for (const auto& r : kRanges) {
    for (const auto v : {r.min - 1, r.max + 1}) {
      const std::string json = std::string("{\"") + r.name + "\":" + std::to_string(v) + "}";
      const std::string refusal = changes(json);
      EXPECT_EQ(refusal, integer_refusal(r, json));
      EXPECT_EQ(refusal.rfind("400 invalid_field " + std::string(r.name) + ": ", 0), 0U) << refusal;
    }
  }
  EXPECT_EQ(changes(R"({"publicOrigin":"https://x.example","available":1})"),
            "400 invalid_field publicOrigin: publicOrigin is a server setting and read only here");
  EXPECT_EQ(changes(R"({"minExtensionVersion":"1.2"})"),
            "400 invalid_field minExtensionVersion: minExtensionVersion must be "
            "<major>.<minor>.<patch>, each 0..99999, e.g. 1.4.2");
  EXPECT_EQ(changes(R"({"allowedClientOrigins":["https://a.example","https://b.example/"]})"),
            "400 invalid_field allowedClientOrigins[1]: allowedClientOrigins[1] must be an "
            "origin scheme://host[:port] without a path, e.g. chrome-extension://<id>, or "
            "moz-extension://*");
  EXPECT_EQ(changes(R"({"available":"true"})").rfind("400 invalid_field available: ", 0), 0U);
  EXPECT_EQ(changes(R"({"minExtensionVersion":""})").rfind("400 invalid_field ", 0), 0U);
  EXPECT_EQ(changes(R"({"sessionIdle":5})"),
            "400 invalid_field sessionIdle: This resource has no field sessionIdle");
}

}  // namespace
