#include "lib/admin/audit_handlers.h"

#include "lib/admin/account_handlers.h"
#include "lib/admin/audit_json.h"
#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/http/api_error.h"
#include "lib/util/time_format.h"

namespace placard::admin {

namespace {

constexpr std::int64_t kDaySeconds = 86400;

db::AuditFilter audit_filter(const ListParams& p) {
  db::AuditFilter f;
  if (const auto account = p.filter("account")) {
    f.account_id = parse_id(*account);
    if (!f.account_id) throw http::invalid_field("account", "account must be an account id");
  }
  if (auto resource = p.filter("resource")) {
    if (resource->empty() || utf8_length(*resource) > 255) {
      throw http::invalid_field("resource", "resource must have 1 to 255 characters");
    }
    if (resource->find(':') == std::string::npos) {
      f.resource_type = std::move(resource);
    } else {
      f.resource = std::move(resource);
    }
  }
  if (auto action = p.filter("action")) {
    if (action->empty() || utf8_length(*action) > 64) {
      throw http::invalid_field("action", "action must have 1 to 64 characters");
    }
    f.action = std::move(action);
  }
  if (const auto from = p.filter("from")) {
    f.from = audit_from(*from);
    if (!f.from) {
      throw http::invalid_field("from", "from must be a day (2026-12-31) or an RFC 3339 time");
    }
  }
  if (const auto to = p.filter("to")) {
    f.until = audit_until(*to);
    if (!f.until) {
      throw http::invalid_field("to", "to must be a day (2026-12-31) or an RFC 3339 time");
    }
  }
  if (f.from && f.until && *f.until <= *f.from) {
    throw http::invalid_field("to", "to must not be earlier than from");
  }
  return f;
}

}  // namespace

std::optional<std::int64_t> audit_from(std::string_view text) {
  if (text.size() == 10) return util::parse_date(text);
  return util::parse_rfc3339(text);
}

std::optional<std::int64_t> audit_until(std::string_view text) {
  if (text.size() == 10) {
    const auto day = util::parse_date(text);
    if (!day) return std::nullopt;
    return *day + kDaySeconds;
  }
  const auto t = util::parse_rfc3339(text);
  if (!t) return std::nullopt;
  return *t + 1;
}

void add_audit_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.read("/audit", [&ctx](http::Request& req, const Actor&) {
    const auto p = parse_list_params(req, {"account", "resource", "action", "from", "to"});
    return page_response(ctx.stores.audit.list(audit_filter(p), p.limit, p.offset), p,
                         [](const auto& item) { return audit_entry_json(item); });
  });
  admin.read("/audit/:id", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    const auto id = parse_id(req.param("id"));
    if (!id) throw http::not_found();
    const auto entry = ctx.stores.audit.find(*id);
    if (!entry) throw http::not_found();
    return ok(audit_entry_json(*entry));
  });
}

}  // namespace placard::admin
