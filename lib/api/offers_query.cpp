#include "lib/api/offers_query.h"

#include <algorithm>

#include "lib/api/offer_query_request.h"
#include "lib/catalog/selection.h"
#include "lib/http/api_error.h"
#include "lib/http/json_body.h"
#include "lib/tokens/token.h"
#include "lib/tokens/token_nonce.h"

namespace placard::api {

namespace {

void append_offer(std::string& out, const catalog::Snapshot& s, const catalog::LiveOffer& o,
                  tokens::TokenClaims& claims, const tokens::KeyRing& keys,
                  tokens::MacWorkspace& macs) {
  out += R"({"id":)";
  out += s.offer_text(o, 0);
  out += R"(,"title":)";
  out += s.offer_text(o, 1);
  out += R"(,"description":)";
  out += s.offer_text(o, 2);
  out += R"(,"merchant":)";
  out += s.offer_text(o, 3);
  out += R"(,"imageUrl":)";
  out += s.offer_text(o, 4);
  out += R"(,"category":")";
  out += s.categories[o.category].path;  // [a-z0-9.-] only: nothing to escape
  out += R"(","couponCode":)";
  out += s.offer_text(o, 5);
  out += R"(,"validUntil":)";
  out += s.offer_text(o, 6);
  out += o.is_demo ? R"(,"isDemo":true)" : R"(,"isDemo":false)";
  claims.offer_id = o.id;
  if (!o.is_demo) {
    claims.kind = tokens::TokenKind::click;
    out += R"(,"clickUrl":"/r/click/)";
    out += std::to_string(o.id);
    out += "?t=";
    tokens::sign_token_append(out, keys, claims, macs);  // URL-safe alphabet: no escaping
    out += '"';
  }
  claims.kind = tokens::TokenKind::impression;
  out += R"(,"impressionToken":")";
  tokens::sign_token_append(out, keys, claims, macs);
  out += "\"}";
}

}  // namespace

http::Response query_offers(http::Request& request, const catalog::Snapshot& snapshot,
                            const tokens::KeyRing& keys, tokens::MacWorkspace& macs,
                            util::FastRng& rng, crypto::RandomPool& nonces, std::int64_t now) {
  http::BodyDocument parsed;
  http::parse_object_body(request, parsed.doc());
  const rapidjson::Document& body = parsed.doc();
  const auto q = parse_offer_query(body);
  const auto& settings = snapshot.settings;
  if (q.extension_version < settings.min_extension_version) {
    throw http::ApiError{426, "extension_outdated",
                         "Extension version " + q.extension_version.to_string() +
                             " is below the minimum " + settings.min_extension_version.to_string()};
  }
  if (!settings.available) {
    throw http::service_unavailable("The service is switched off");
  }
  const auto placement = snapshot.placements.find(q.placement);
  if (placement == snapshot.placements.end()) {
    throw http::ApiError{422, "placement_unknown", "Placement " + q.placement + " is not offered",
                         "placement"};
  }
  const auto country = snapshot.country_index(q.country);
  if (!country) {
    throw http::ApiError{422, "country_not_selected", "Country " + q.country + " is not offered",
                         "country"};
  }
  std::optional<std::uint32_t> category;
  if (q.category) {
    const auto it = snapshot.enabled_category_by_path.find(*q.category);
    if (it == snapshot.enabled_category_by_path.end()) {
      throw http::ApiError{422, "category_not_selected",
                           "Category " + *q.category + " is not offered", "category"};
    }
    category = it->second;
  }

  const auto want = static_cast<std::size_t>(
      std::min({q.limit.value_or(placement->second), placement->second, 20}));
  const auto chosen = catalog::select_offers(
      snapshot.offers, snapshot.candidates(category, *country), want, now, rng);

  tokens::TokenClaims claims;
  claims.issued_at = now;
  claims.placement = q.placement;
  claims.country = q.country;
  std::string out;
  out.reserve(256 + chosen.size() * 800);
  out += R"({"offers":[)";
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (i > 0) out += ',';
    // One per offer, shared by its impression and click tokens; led by the issue time.
    tokens::fill_nonce(claims.nonce, now, nonces);
    append_offer(out, snapshot, snapshot.offers[chosen[i]], claims, keys, macs);
  }
  out += "]}";
  auto response = http::Response::json(200, std::move(out));
  response.set_header("Cache-Control", "no-store");
  return response;
}

}  // namespace placard::api
