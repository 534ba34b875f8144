#include "lib/network/awin.h"

#include "lib/json/safe_parse.h"
#include "lib/json/writer.h"
#include "lib/network/normalize.h"

namespace placard::network {

namespace {

std::optional<NetworkOffer> promotion(const rapidjson::Value& p) {
  if (!p.IsObject()) return std::nullopt;
  const auto* adv = member(p, "advertiser");
  if (adv == nullptr || !adv->IsObject()) return std::nullopt;
  const auto* joined = member(*adv, "joined");
  if (joined == nullptr || !joined->IsBool() || !joined->GetBool()) return std::nullopt;
  NetworkOffer o;
  const auto id = id_text(p, "promotionId");
  if (!id) return std::nullopt;
  o.external_id = *id;
  o.title = str(p, "title");
  if (o.title.empty()) return std::nullopt;
  o.description = str(p, "description");
  o.merchant = str(*adv, "name");
  if (const auto adv_id = id_text(*adv, "id"))
    o.categories.emplace_back("adv-" + *adv_id, o.merchant);
  if (str(p, "type") == "voucher") {
    if (const auto* v = member(p, "voucher")) {
      const std::string code = str(*v, "code");
      if (!code.empty()) o.coupon_code = code;
    }
  }
  if (const auto* regions = member(p, "regions"); regions != nullptr && regions->IsObject()) {
    const auto* all = member(*regions, "all");
    o.all_countries = all != nullptr && all->IsBool() && all->GetBool();
    const auto* list = member(*regions, "list");
    if (!o.all_countries && list != nullptr && list->IsArray()) {
      for (const auto& r : list->GetArray()) {
        if (auto cc = country_code(str(r, "countryCode"))) o.countries.push_back(std::move(*cc));
      }
    }
  }
  const std::string start = str(p, "startDate");
  const std::string end = str(p, "endDate");
  if (!start.empty()) o.valid_from = parse_network_time(start);
  if (!end.empty()) o.valid_until = parse_network_time(end);
  o.tracking_url = str(p, "urlTracking");
  return o;
}

std::string request_body(int page, int page_size) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("filters");
  w.StartObject();
  w.Key("membership");
  w.String("joined");
  w.Key("status");
  w.String("active");
  w.Key("type");
  w.String("all");
  w.EndObject();
  w.Key("pagination");
  w.StartObject();
  w.Key("page");
  w.Int(page);
  w.Key("pageSize");
  w.Int(page_size);
  w.EndObject();
  w.EndObject();
  return json::to_string(buf);
}

}  // namespace

AwinPage parse_awin_promotions(std::string_view body) {
  auto page =
      parse_offer_page(body, {"data", "pagination", "total", "Awin sent promotions"}, promotion);
  return {std::move(page.offers), page.total, page.results};
}

AwinAdapter::AwinAdapter(HttpClient& http, Clock& clock, AwinCredentials credentials,
                         AdapterOptions options)
    : credentials_(std::move(credentials)),
      options_(std::move(options)),
      sender_(http, clock, options_, "Awin") {
  if (options_.per_minute <= 0) options_.per_minute = kPerMinute;
  if (options_.page_size <= 0) options_.page_size = kDefaultPageSize;
}

void AwinAdapter::pull(const std::function<void(const OfferPage&)>& on_page) {
  const int size = options_.page_size;
  std::uint64_t seen = 0;
  for (int page_no = 1;; ++page_no) {
    HttpRequest r;
    r.method = "POST";
    r.url =
        options_.api_base + "/publisher/" + form_encode(credentials_.publisher_id) + "/promotions";
    bearer_header(r, credentials_.api_token);
    r.headers.emplace_back("Content-Type", "application/json");
    r.headers.emplace_back("Accept", "application/json");
    r.body = request_body(page_no, size);
    const auto resp = sender_.send(r, 429, 503);
    const std::string where = " (page " + std::to_string(page_no) + ")";
    if (resp.status == 401 || resp.status == 403) throw NetworkError("Awin refused the API token");
    if (resp.status == 404) throw NetworkError("Awin does not know this publisher id");
    if (resp.status != 200) {
      throw NetworkError("Awin answered HTTP " + std::to_string(resp.status) +
                         " for the promotions" + where);
    }
    AwinPage page;
    try {
      page = parse_awin_promotions(resp.body);
    } catch (const NetworkError& e) {
      throw NetworkError(e.what() + where);
    }
    seen += page.results;
    const auto total = static_cast<int>((page.total + size - 1) / size);
    on_page({std::move(page.offers), page_no, std::max(total, page_no)});
    if (page.results == 0 || seen >= page.total) return;
    if (page_no > 100000) throw NetworkError("Awin kept sending pages past its own total");
  }
}

}  // namespace placard::network
