#include "lib/network/admitad.h"

#include <algorithm>

#include "lib/crypto/base64.h"
#include "lib/json/safe_parse.h"
#include "lib/network/normalize.h"

namespace placard::network {

namespace {

constexpr std::string_view kPlaceholderRu =
    "\xD0\x9D\xD0\x95 \xD0\x9D\xD0\xA3\xD0\x96\xD0\x95\xD0\x9D";  // НЕ НУЖЕН
constexpr std::string_view kPlaceholderRuLower =
    "\xD0\xBD\xD0\xB5 \xD0\xBD\xD1\x83\xD0\xB6\xD0\xB5\xD0\xBD";  // не нужен

std::optional<NetworkOffer> coupon(const rapidjson::Value& c) {
  if (!c.IsObject()) return std::nullopt;
  NetworkOffer o;
  const auto id = id_text(c, "id");
  if (!id) return std::nullopt;
  o.external_id = *id;
  const std::string status = str(c, "status");
  if (!status.empty() && status != "active") return std::nullopt;
  o.title = str(c, "name");
  if (o.title.empty()) o.title = str(c, "short_name");
  if (o.title.empty()) return std::nullopt;
  o.description = str(c, "description");
  if (const auto* campaign = member(c, "campaign")) o.merchant = str(*campaign, "name");
  o.image_url = https_image(str(c, "image"));
  const std::string code = str(c, "promocode");
  if (str(c, "species") != "action" && !code.empty() && !admitad_placeholder_code(code)) {
    o.coupon_code = code;
  }
  if (const auto* cats = member(c, "categories"); cats != nullptr && cats->IsArray()) {
    for (const auto& cat : cats->GetArray()) {
      const auto cid = id_text(cat, "id");
      if (cid) o.categories.emplace_back(*cid, str(cat, "name"));
    }
  }
  if (const auto* regions = member(c, "regions"); regions != nullptr && regions->IsArray()) {
    for (const auto& r : regions->GetArray()) {
      if (!r.IsString()) continue;
      if (auto cc = country_code({r.GetString(), r.GetStringLength()})) {
        o.countries.push_back(std::move(*cc));
      }
    }
  }
  const std::string start = str(c, "date_start");
  const std::string end = str(c, "date_end");
  if (!start.empty()) o.valid_from = parse_network_time(start);
  if (!end.empty()) o.valid_until = parse_network_time(end);  // null: open-ended
  o.tracking_url = str(c, "goto_link");
  return o;
}

}  // namespace

bool admitad_placeholder_code(std::string_view code) {
  return code == kPlaceholderRu || code == kPlaceholderRuLower;
}

AdmitadPage parse_admitad_coupons(std::string_view body) {
  auto page = parse_offer_page(body, {"results", "_meta", "count", "Admitad sent coupons"}, coupon);
  return {std::move(page.offers), page.total, page.results};
}

AdmitadAdapter::AdmitadAdapter(HttpClient& http, Clock& clock, AdmitadCredentials credentials,
                               AdmitadTokenCache& tokens, AdapterOptions options)
    : clock_(clock),
      credentials_(std::move(credentials)),
      tokens_(tokens),
      options_(std::move(options)),
      sender_(http, clock, options_, "Admitad") {
  if (options_.per_minute <= 0) options_.per_minute = kPerMinute;
  if (options_.page_size <= 0) options_.page_size = kDefaultPageSize;
}

const crypto::SecretString& AdmitadAdapter::token() {
  if (tokens_.valid(clock_.now())) return tokens_.access_token;
  HttpRequest r;
  r.method = "POST";
  r.url = options_.api_base + "/token/";
  {
    // Every buffer that held the secret is wiped (the request's own, in ~HttpRequest).
    std::string pair;
    pair.reserve(credentials_.client_id.size() + 1 + credentials_.client_secret.size());
    pair.append(credentials_.client_id).append(1, ':').append(credentials_.client_secret.view());
    std::string encoded = crypto::base64_encode(pair);
    std::string auth;
    auth.reserve(6 + encoded.size());
    auth.append("Basic ").append(encoded);
    r.headers.emplace_back("Authorization", std::move(auth));
    crypto::wipe(auth);  // NOLINT(bugprone-use-after-move): wipes what a short string left
    crypto::wipe(encoded);
    crypto::wipe(pair);
  }
  r.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
  r.headers.emplace_back("Accept", "application/json");
  r.body = "grant_type=client_credentials&client_id=" + form_encode(credentials_.client_id) +
           "&scope=coupons_for_website";
  auto resp = sender_.send(r, 503, 429);
  if (resp.status != 200) {
    if (json_error_code(resp.body) == 6) {
      throw NetworkError(
          "Admitad refused a new access token: too many tokens were asked for; try later");
    }
    if (resp.status == 400 || resp.status == 401 || resp.status == 403) {
      throw NetworkError("Admitad refused the credentials");
    }
    throw NetworkError("Admitad's token service answered HTTP " + std::to_string(resp.status));
  }
  rapidjson::Document doc;
  const rapidjson::Value* tok = nullptr;
  const rapidjson::Value* ttl = nullptr;
  if (json::parse_untrusted(resp.body, doc) && doc.IsObject()) {
    tok = member(doc, "access_token");
    ttl = member(doc, "expires_in");
  }
  if (tok == nullptr || !tok->IsString() || tok->GetStringLength() == 0 || ttl == nullptr ||
      !ttl->IsInt64()) {
    throw NetworkError("Admitad's token service sent an answer that could not be read");
  }
  // Renewed a minute early, so a token does not expire between two pages; kept at most 30 days
  // (Admitad's last a week), whatever the answer says: a huge `expires_in` would overflow the
  // clock's nanoseconds (found by the network_adapters fuzzer).
  constexpr std::int64_t kLongestSeconds = 30LL * 24 * 3600;
  const auto seconds = std::clamp<std::int64_t>(ttl->GetInt64(), 60, kLongestSeconds + 60) - 60;
  tokens_.access_token.assign(std::string_view(tok->GetString(), tok->GetStringLength()));
  // The token's other copies: the parsed document's and the answer's.
  crypto::wipe(
      const_cast<char*>(tok->GetString()),  // NOLINT(cppcoreguidelines-pro-type-const-cast)
      tok->GetStringLength());
  crypto::wipe(resp.body);
  tokens_.expires_at = clock_.now() + std::chrono::seconds(seconds);
  return tokens_.access_token;
}

HttpResponse AdmitadAdapter::get_page(std::uint64_t offset, int limit) {
  for (int renewals = 0;; ++renewals) {
    HttpRequest r;
    r.url = options_.api_base + "/coupons/website/" + form_encode(credentials_.website_id) +
            "/?limit=" + std::to_string(limit) + "&offset=" + std::to_string(offset);
    bearer_header(r, token());
    r.headers.emplace_back("Accept", "application/json");
    auto resp = sender_.send(r, 503, 429);
    if (resp.status != 401) return resp;
    tokens_.clear();  // expired (error_code 0) or no longer valid: renewed once
    if (renewals >= 1) throw NetworkError("Admitad refused the access token");
  }
}

void AdmitadAdapter::pull(const std::function<void(const OfferPage&)>& on_page) {
  const int limit = options_.page_size;
  std::uint64_t offset = 0;
  int done = 0;
  while (true) {
    const auto resp = get_page(offset, limit);
    const std::string where = " (page " + std::to_string(done + 1) + ")";
    if (resp.status == 403) {
      throw NetworkError("Admitad refused access to this website's coupons" + where);
    }
    if (resp.status == 404) throw NetworkError("Admitad does not know this website id");
    if (resp.status != 200) {
      throw NetworkError("Admitad answered HTTP " + std::to_string(resp.status) +
                         " for the coupons" + where);
    }
    AdmitadPage page;
    try {
      page = parse_admitad_coupons(resp.body);
    } catch (const NetworkError& e) {
      throw NetworkError(e.what() + where);
    }
    ++done;
    offset += page.results;
    const auto total = static_cast<int>((page.count + limit - 1) / limit);
    on_page({std::move(page.offers), done, std::max(total, done)});
    if (page.results == 0 || offset >= page.count) return;
    if (done > 100000) throw NetworkError("Admitad kept sending pages past its own count");
  }
}

}  // namespace placard::network
