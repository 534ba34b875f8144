#include "lib/admin/admin_router.h"

#include "lib/admin/access.h"
#include "lib/admin/account_handlers.h"
#include "lib/admin/audit_handlers.h"
#include "lib/admin/category_handlers.h"
#include "lib/admin/country_handlers.h"
#include "lib/admin/network_handlers.h"
#include "lib/admin/offer_handlers.h"
#include "lib/admin/placement_handlers.h"
#include "lib/admin/session_handlers.h"
#include "lib/admin/settings_handlers.h"
#include "lib/admin/stats_handlers.h"

namespace placard::admin {

// The handlers registered here keep a reference to the context (owned by the request thread,
// alive as long as its router), never to this AdminRouter, which may be a temporary.

std::shared_ptr<const catalog::Snapshot> AdminRouter::snapshot() const {
  return api::require_snapshot(ctx_.shared);
}

void AdminRouter::read(std::string_view pattern, Handler handler) {
  router_.add("GET", std::string(kAdminPrefix) + std::string(pattern),
              [&ctx = ctx_, h = std::move(handler)](http::Request& req) {
                const auto snap = api::require_snapshot(ctx.shared);
                const Actor actor =
                    require_session(req, ctx.config, ctx.stores.accounts, snap->settings);
                return h(req, actor);
              });
}

void AdminRouter::write(std::string method, std::string_view pattern, Handler handler) {
  router_.add(std::move(method), std::string(kAdminPrefix) + std::string(pattern),
              [&ctx = ctx_, h = std::move(handler)](http::Request& req) {
                const auto snap = api::require_snapshot(ctx.shared);
                require_same_origin_write(req, ctx.config, snap->settings);
                const Actor actor =
                    require_session(req, ctx.config, ctx.stores.accounts, snap->settings);
                return h(req, actor);
              });
}

void AdminRouter::open_write(std::string method, std::string_view pattern, OpenHandler handler) {
  router_.add(std::move(method), std::string(kAdminPrefix) + std::string(pattern),
              [&ctx = ctx_, h = std::move(handler)](http::Request& req) {
                require_same_origin_write(req, ctx.config,
                                          api::require_snapshot(ctx.shared)->settings);
                return h(req);
              });
}

void add_admin_routes(http::Router& router, AdminContext& context) {
  AdminRouter admin(router, context);
  add_session_routes(admin);
  add_account_routes(admin);
  add_settings_routes(admin);
  add_country_routes(admin);
  add_category_routes(admin);
  add_placement_routes(admin);
  add_offer_routes(admin);
  add_audit_routes(admin);
  add_stats_routes(admin);
  add_network_routes(admin);
}

}  // namespace placard::admin
