#include "lib/admin/offer_handlers.h"

#include <algorithm>
#include <stdexcept>

#include "lib/admin/account_handlers.h"
#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/admin/offer_input.h"
#include "lib/admin/offer_json.h"
#include "lib/api/offer_query_request.h"
#include "lib/http/api_error.h"

namespace placard::admin {

namespace {

constexpr std::size_t kMaxQueryChars = 200;

db::OfferFilter offer_filter(const ListParams& p) {
  db::OfferFilter f;
  if (auto q = p.filter("q"); q && !q->empty()) {
    if (utf8_length(*q) > kMaxQueryChars) {
      throw http::invalid_field("q", "q must have at most 200 characters");
    }
    f.q = std::move(q);
  }
  f.category = p.filter("category");
  if (f.category && !api::is_category_path(*f.category)) {
    throw http::invalid_field("category",
                              "category must be a dotted path such as electronics.phones");
  }
  f.country = p.filter("country");
  if (f.country && !api::is_country_code(*f.country)) {
    throw http::invalid_field("country", "country must be a country code such as DE");
  }
  f.network = p.filter("network");
  if (f.network && *f.network != "manual" && *f.network != "admitad" && *f.network != "awin") {
    throw http::invalid_field("network", "network must be manual, admitad or awin");
  }
  f.enabled = p.bool_filter("enabled");
  f.is_demo = p.bool_filter("isDemo");
  f.served = p.bool_filter("served");
  return f;
}

std::uint64_t require_category(db::OfferAdminStore& store, const std::string& path) {
  const auto id = store.category_id(path);
  if (!id) throw http::invalid_field("category", "There is no category " + path);
  return *id;
}

// Every code must exist (selected or not); answers the set sorted, without duplicates.
std::vector<std::string> resolve_countries(db::OfferAdminStore& store,
                                           const std::vector<std::string>& codes) {
  for (std::size_t i = 0; i < codes.size(); ++i) {
    if (!store.country_exists(codes[i])) {
      const std::string field = "countries[" + std::to_string(i) + "]";
      throw http::invalid_field(field, "There is no country " + codes[i]);
    }
  }
  std::vector<std::string> out = codes;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::uint64_t require_id(const http::Request& req) {
  const auto id = parse_id(req.param("id"));
  if (!id) throw http::not_found();
  return *id;
}

std::string resource_of(std::uint64_t id) {
  return "offer:" + std::to_string(id);
}

http::Response list_offers(http::Request& req, AdminContext& ctx) {
  const auto p = parse_list_params(
      req, {"q", "category", "country", "network", "enabled", "isDemo", "served"});
  return page_response(ctx.stores.offers.list(offer_filter(p), p.limit, p.offset), p,
                       [](const auto& item) { return offer_json(item); });
}

http::Response create_offer(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const OfferCreateInput in = parse_offer_create(req);
  auto& store = ctx.stores.offers;
  std::optional<db::AdminOffer> made;
  ctx.stores.tx.run([&] {
    db::NewOffer offer = in.offer;
    offer.category_id = require_category(store, in.category);
    offer.countries = resolve_countries(store, in.countries);
    const auto id = store.insert(offer);
    made = store.find(id, false);
    if (!made) throw std::runtime_error("the new offer cannot be read back");
    ctx.stores.tx.audit({actor.account.id, "offer.create", resource_of(id), "", offer_json(*made)});
    ctx.stores.tx.bump_catalog_version();
  });
  return created(offer_json(*made), "/offers/" + std::to_string(made->id));
}

void check_demo_change(const db::AdminOffer& before, bool demo) {
  if (demo && before.tracking_url) {
    throw http::ApiError{409, "conflict",
                         "An offer with a trackingUrl cannot become a demonstration offer",
                         "isDemo"};
  }
  if (!demo && before.is_demo && !before.tracking_url) {
    throw http::ApiError{409, "conflict",
                         "A demonstration offer has no trackingUrl, so it cannot become a "
                         "real offer",
                         "isDemo"};
  }
}

http::Response patch_offer(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const std::uint64_t id = require_id(req);
  const OfferPatchInput patch = parse_offer_patch(req);
  auto& store = ctx.stores.offers;
  std::optional<db::AdminOffer> after;
  ctx.stores.tx.run([&] {
    const auto before = store.find(id, true);
    if (!before) throw http::not_found();
    if (patch.empty()) {
      after = before;
      return;
    }
    db::OfferChanges ch;
    ch.enabled = patch.enabled;
    ch.priority = patch.priority;
    ch.valid_from = patch.valid_from;
    ch.valid_until = patch.valid_until;
    const auto from = patch.valid_from ? *patch.valid_from : before->valid_from;
    const auto until = patch.valid_until ? *patch.valid_until : before->valid_until;
    if (from && until && *from >= *until) {
      throw http::invalid_field(patch.valid_until ? "validUntil" : "validFrom",
                                "validFrom must be earlier than validUntil");
    }
    if (patch.category) ch.category_id = require_category(store, *patch.category);
    if (patch.countries) ch.countries = resolve_countries(store, *patch.countries);
    if (patch.is_demo) {
      check_demo_change(*before, *patch.is_demo);
      ch.is_demo = patch.is_demo;
    }
    // Imported offers: the administrator's values win over later syncs.
    if (before->network != "manual") ch.overrides = merged_overrides(before->overrides, patch);
    store.update(id, ch);
    after = store.find(id, false);
    if (!after) throw std::runtime_error("the updated offer cannot be read back");
    ctx.stores.tx.audit({actor.account.id, "offer.update", resource_of(id), offer_json(*before),
                         offer_json(*after)});
    ctx.stores.tx.bump_catalog_version();
  });
  return ok(offer_json(*after));
}

}  // namespace

void add_offer_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.read("/offers", [&ctx](http::Request& req, const Actor&) { return list_offers(req, ctx); });
  admin.write("POST", "/offers", [&ctx](http::Request& req, const Actor& actor) {
    return create_offer(req, ctx, actor);
  });
  admin.read("/offers/:id", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    const auto offer = ctx.stores.offers.find(require_id(req), false);
    if (!offer) throw http::not_found();
    return ok(offer_json(*offer));
  });
  admin.write("PATCH", "/offers/:id", [&ctx](http::Request& req, const Actor& actor) {
    return patch_offer(req, ctx, actor);
  });
}

}  // namespace placard::admin
