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

catalog::Settings typed(const Stored& stored) {
  std::vector<std::string> problems;  // a bad stored value reads as its default, as in the snapshot
  return catalog::parse_settings(stored, problems);
}

// The body's value of `row` (present in the body) as the database stores it; 400
// invalid_field naming the field when it does not fit the row.
std::string checked_value(const Body& body, const catalog::StoredSetting& row) {
  const std::string name(row.name);
  if (!row.writable) {
    throw http::invalid_field(name, name + " is a server setting and read only here");
  }
  switch (row.type) {
    case catalog::StoredType::boolean:
      return *body.opt_boolean(name) ? "true" : "false";
    case catalog::StoredType::integer:
      return std::to_string(*body.opt_integer(name, row.min, row.max));
    case catalog::StoredType::version: {
      const auto text = body.opt_string(name, static_cast<std::size_t>(row.min),
                                        static_cast<std::size_t>(row.max));
      const auto version = util::parse_version(*text);
      if (!version) {
        throw http::invalid_field(name, name +
                                            " must be <major>.<minor>.<patch>, each 0..99999, "
                                            "e.g. 1.4.2");
      }
      return version->to_string();
    }
    case catalog::StoredType::origins: {
      const auto list = body.opt_string_array(name, static_cast<std::size_t>(row.max));
      std::vector<std::string> origins;
      for (std::size_t i = 0; i < list->size(); ++i) {
        const auto o = normalize_client_origin((*list)[i]);
        if (!o) {
          const std::string field = name + "[" + std::to_string(i) + "]";
          throw http::invalid_field(field, field +
                                               " must be an origin scheme://host[:port] "
                                               "without a path, e.g. chrome-extension://<id>, "
                                               "or moz-extension://*");
        }
        if (std::find(origins.begin(), origins.end(), *o) == origins.end()) origins.push_back(*o);
      }
      return catalog::origins_text(origins);
    }
    case catalog::StoredType::text:
      break;  // any text of min..max characters, below
  }
  return *body.opt_string(name, static_cast<std::size_t>(row.min),
                          static_cast<std::size_t>(row.max));
}

}  // namespace

Stored settings_changes(const Body& body) {
  const auto& table = catalog::stored_settings_table();
  Stored out;
  // The read-only ones are refused first, whatever else the body holds.
  for (const bool writable : {false, true}) {
    for (const auto& row : table) {
      if (row.writable == writable && body.has(row.name)) {
        out[std::string(row.name)] = checked_value(body, row);
      }
    }
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
  std::vector<std::string_view> fields;
  for (const auto& row : catalog::stored_settings_table()) fields.push_back(row.name);
  const Body body(req, fields);
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
