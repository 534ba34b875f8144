#include "lib/admin/settings_handlers.h"

#include <algorithm>
#include <map>
#include <optional>

#include "lib/admin/access.h"
#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/admin/settings_rules.h"
#include "lib/http/api_error.h"
#include "lib/json/writer.h"

namespace placard::admin {

namespace {

using Stored = std::map<std::string, std::string>;

// The per-client limits of impressions and clicks: each 0 (off) .. catalog::kMaxEventLimit.
constexpr const char* kLimitSettings[] = {"clickLimitPerMinute", "clickLimitPer10Minutes",
                                          "clickLimitPerHour", "impressionLimitPer5Minutes"};

catalog::Settings typed(const Stored& stored) {
  std::vector<std::string> problems;  // a bad stored value reads as its default, as in the snapshot
  return catalog::parse_settings(stored, problems);
}

std::string int_text(std::int64_t v) {
  return std::to_string(v);
}

std::string origins_text(const std::vector<std::string>& origins) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartArray();
  for (const auto& o : origins) w.String(o);
  w.EndArray();
  return json::to_string(buf);
}

}  // namespace

Stored settings_changes(const Body& body) {
  if (body.has("publicOrigin")) {
    throw http::invalid_field("publicOrigin",
                              "publicOrigin is a server setting and read only here");
  }
  Stored out;
  if (const auto v = body.opt_boolean("available")) out["available"] = *v ? "true" : "false";
  if (const auto v = body.opt_integer("refreshIntervalSeconds", 60, 86400)) {
    out["refreshIntervalSeconds"] = int_text(*v);
  }
  if (const auto v = body.opt_string("minExtensionVersion", 1, 32)) {
    const auto version = util::parse_version(*v);
    if (!version) {
      throw http::invalid_field("minExtensionVersion",
                                "minExtensionVersion must be <major>.<minor>.<patch>, each "
                                "0..99999, e.g. 1.4.2");
    }
    out["minExtensionVersion"] = version->to_string();
  }
  if (const auto list = body.opt_string_array("allowedClientOrigins", 50)) {
    std::vector<std::string> origins;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const auto o = normalize_client_origin((*list)[i]);
      if (!o) {
        const std::string field = "allowedClientOrigins[" + std::to_string(i) + "]";
        throw http::invalid_field(field, field +
                                             " must be an origin scheme://host[:port] "
                                             "without a path, e.g. chrome-extension://<id>, "
                                             "or moz-extension://*");
      }
      if (std::find(origins.begin(), origins.end(), *o) == origins.end()) origins.push_back(*o);
    }
    out["allowedClientOrigins"] = origins_text(origins);
  }
  if (const auto v = body.opt_integer("tokenTtlSeconds", 1, 30LL * 86400)) {
    out["tokenTtlSeconds"] = int_text(*v);
  }
  if (const auto v = body.opt_integer("sessionIdleMinutes", catalog::kMinSessionIdleMinutes,
                                      catalog::kMaxSessionIdleMinutes)) {
    out["sessionIdleMinutes"] = int_text(*v);
  }
  if (const auto v = body.opt_integer("rawEventRetentionDays", catalog::kMinRetentionDays,
                                      catalog::kMaxRetentionDays)) {
    out["rawEventRetentionDays"] = int_text(*v);
  }
  if (const auto v =
          body.opt_integer("networkSyncIntervalMinutes", 0, catalog::kMaxSyncIntervalMinutes)) {
    out["networkSyncIntervalMinutes"] = int_text(*v);
  }
  for (const char* name : kLimitSettings) {
    if (const auto v = body.opt_integer(name, 0, catalog::kMaxEventLimit)) out[name] = int_text(*v);
  }
  return out;
}

namespace {

// Raw events are kept at least as long as a token lives (see token_ttl_days).
void check_retention(const catalog::Settings& after, const Stored& changes) {
  const std::int64_t needed = token_ttl_days(after.token_ttl_seconds);
  if (after.raw_event_retention_days >= needed) return;
  const std::string field =
      changes.count("rawEventRetentionDays") != 0 ? "rawEventRetentionDays" : "tokenTtlSeconds";
  throw http::invalid_field(field, "rawEventRetentionDays (" +
                                       std::to_string(after.raw_event_retention_days) +
                                       ") must not be below the token time to live in days (" +
                                       std::to_string(needed) + ")");
}

// What GET /settings shows as publicOrigin: the origin admin writes are checked against (the
// config file's public_origin, else the older database setting).
catalog::Settings shown(catalog::Settings settings, const AdminConfig& config) {
  settings.public_origin = service_origin(config, settings);
  return settings;
}

http::Response patch_settings(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const Body body(
      req, {"available", "refreshIntervalSeconds", "minExtensionVersion", "allowedClientOrigins",
            "tokenTtlSeconds", "sessionIdleMinutes", "rawEventRetentionDays",
            "networkSyncIntervalMinutes", "publicOrigin", "clickLimitPerMinute",
            "clickLimitPer10Minutes", "clickLimitPerHour", "impressionLimitPer5Minutes"});
  const Stored changes = settings_changes(body);
  std::string after_json;
  ctx.stores.tx.run([&] {
    Stored stored = ctx.stores.settings.read_all(true);
    const std::string before_json = settings_json(shown(typed(stored), ctx.config));
    for (const auto& [name, value] : changes) stored[name] = value;
    const catalog::Settings after = typed(stored);
    if (changes.count("rawEventRetentionDays") != 0 || changes.count("tokenTtlSeconds") != 0) {
      check_retention(after, changes);
    }
    for (const auto& [name, value] : changes) ctx.stores.settings.write(name, value);
    after_json = settings_json(shown(after, ctx.config));
    ctx.stores.tx.audit({actor.account.id, "settings.update", "settings", before_json, after_json});
    if (after_json != before_json) ctx.stores.tx.bump_catalog_version();
  });
  return ok(after_json);
}

}  // namespace

void add_settings_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.read("/settings", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    return ok(settings_json(shown(typed(ctx.stores.settings.read_all(false)), ctx.config)));
  });
  admin.write("PATCH", "/settings", [&ctx](http::Request& req, const Actor& actor) {
    return patch_settings(req, ctx, actor);
  });
}

}  // namespace placard::admin
