#include "lib/admin/placement_handlers.h"

#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/admin/write_helpers.h"
#include "lib/api/offer_query_request.h"
#include "lib/db/errors.h"
#include "lib/http/api_error.h"
#include "lib/json/flat_object.h"

namespace placard::admin {

namespace {

constexpr std::int64_t kMinMaxOffers = 1;
constexpr std::int64_t kMaxMaxOffers = 20;

std::string placement_json(const db::PlacementRecord& p) {
  return json::FlatObject()
      .add("name", p.name)
      .add("maxOffers", p.max_offers)
      .add("enabled", p.enabled)
      .str();
}

http::ApiError name_conflict(const std::string& name) {
  return {409, "conflict", "A placement named " + name + " exists", "name"};
}

db::PlacementRecord require_placement(db::PlacementStore& store, std::string_view name) {
  if (!api::is_placement_name(name)) throw http::not_found();
  auto p = store.find(std::string(name));
  if (!p) throw http::not_found();
  return *p;
}

http::Response create_placement(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const Body body(req, {"name", "maxOffers", "enabled"});
  db::PlacementRecord p;
  p.name = body.string("name", 1, 64);
  if (!api::is_placement_name(p.name)) {
    throw http::invalid_field("name", "name must match [a-z0-9][a-z0-9_-]{0,63}, e.g. popup-main");
  }
  p.max_offers = static_cast<int>(body.integer("maxOffers", kMinMaxOffers, kMaxMaxOffers));
  p.enabled = body.opt_boolean("enabled").value_or(true);
  std::string after_json;
  try {
    ctx.stores.tx.run([&] {
      auto& store = ctx.stores.placements;
      if (store.find(p.name)) throw name_conflict(p.name);
      store.insert(p);
      const auto after = store.find(p.name);
      if (!after) throw std::runtime_error("the new placement cannot be read back");
      after_json = placement_json(*after);
      ctx.stores.tx.audit(
          {actor.account.id, "placement.create", "placement:" + p.name, "", after_json});
      ctx.stores.tx.bump_catalog_version();
    });
  } catch (const db::DuplicateKey&) {
    throw name_conflict(p.name);  // created by someone else meanwhile
  }
  return created(after_json, "/placements/" + encode_segment(p.name));
}

http::Response update_placement(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const Body body(req, {"maxOffers", "enabled", "name"});
  if (body.has("name")) {
    throw http::invalid_field("name", "A placement's name cannot be changed: create a new one");
  }
  db::PlacementChange change;
  if (const auto n = body.opt_integer("maxOffers", kMinMaxOffers, kMaxMaxOffers)) {
    change.max_offers = static_cast<int>(*n);
  }
  change.enabled = body.opt_boolean("enabled");
  std::string after_json;
  ctx.stores.tx.run([&] {
    auto& store = ctx.stores.placements;
    const auto before = require_placement(store, req.param("name"));
    store.update(before.name, change);
    const auto after = store.find(before.name);
    if (!after) throw std::runtime_error("the placement cannot be read back");
    const std::string before_json = placement_json(before);
    after_json = placement_json(*after);
    ctx.stores.tx.audit({actor.account.id, "placement.update", "placement:" + before.name,
                         before_json, after_json});
    if (after_json != before_json) ctx.stores.tx.bump_catalog_version();
  });
  return ok(after_json);
}

http::Response delete_placement(http::Request& req, AdminContext& ctx, const Actor& actor) {
  reject_body_fields(req);
  ctx.stores.tx.run([&] {
    auto& store = ctx.stores.placements;
    const auto before = require_placement(store, req.param("name"));
    store.remove(before.name);
    ctx.stores.tx.audit({actor.account.id, "placement.delete", "placement:" + before.name,
                         placement_json(before), ""});
    ctx.stores.tx.bump_catalog_version();
  });
  return no_content();
}

}  // namespace

void add_placement_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.read("/placements", [&ctx](http::Request& req, const Actor&) {
    const auto p = parse_list_params(req, {"enabled"});
    return page_response(ctx.stores.placements.list(p.bool_filter("enabled"), p.limit, p.offset), p,
                         [](const auto& item) { return placement_json(item); });
  });
  admin.read("/placements/:name", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    return ok(placement_json(require_placement(ctx.stores.placements, req.param("name"))));
  });
  admin.write("POST", "/placements", [&ctx](http::Request& req, const Actor& actor) {
    return create_placement(req, ctx, actor);
  });
  admin.write("PATCH", "/placements/:name", [&ctx](http::Request& req, const Actor& actor) {
    return update_placement(req, ctx, actor);
  });
  admin.write("DELETE", "/placements/:name", [&ctx](http::Request& req, const Actor& actor) {
    return delete_placement(req, ctx, actor);
  });
}

}  // namespace placard::admin
