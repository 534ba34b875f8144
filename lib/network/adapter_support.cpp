#include "lib/network/adapter_support.h"

#include <climits>

#include "lib/json/safe_parse.h"
#include "lib/network/adapter.h"
#include "lib/network/normalize.h"
#include "lib/util/parse_int.h"

namespace placard::network {

HttpResponse PacedSender::send(const HttpRequest& request, int limited_status,
                               int limited_status2) {
  for (int attempt = 0;; ++attempt) {
    limiter_.acquire();
    HttpResponse resp;
    try {
      resp = http_.send(request);
    } catch (const HttpError& e) {
      throw NetworkError(label_ + " could not be reached: " + e.what());
    }
    if (resp.status != limited_status && resp.status != limited_status2) return resp;
    if (attempt >= options_.backoff.max_retries) {
      throw NetworkError(label_ + " kept refusing requests: its request limit was reached (" +
                         std::to_string(attempt + 1) + " attempts)");
    }
    clock_.sleep_for(options_.backoff.delay(attempt, resp.retry_after_seconds));
  }
}

std::string form_encode(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    }
  }
  return out;
}

std::optional<long> json_error_code(std::string_view body) {
  rapidjson::Document doc;
  if (!json::parse_untrusted(body, doc) || !doc.IsObject()) return std::nullopt;
  const auto* v = member(doc, "error_code");
  if (v == nullptr) return std::nullopt;
  if (v->IsInt64()) return static_cast<long>(v->GetInt64());
  if (v->IsString()) {
    return util::parse_int_in<long>(std::string_view(v->GetString(), v->GetStringLength()),
                                    LONG_MIN, LONG_MAX);
  }
  return std::nullopt;
}

OfferListPage parse_offer_page(
    std::string_view body, const PageShape& shape,
    const std::function<std::optional<NetworkOffer>(const rapidjson::Value&)>& read_one) {
  rapidjson::Document doc;
  if (!json::parse_untrusted(body, doc) || !doc.IsObject()) {
    throw NetworkError(std::string(shape.what) + " that could not be read (not JSON)");
  }
  const auto* items = member(doc, shape.items);
  const auto* meta = member(doc, shape.meta);
  const auto* count = meta != nullptr ? member(*meta, shape.count) : nullptr;
  if (items == nullptr || !items->IsArray() || count == nullptr || !count->IsUint64()) {
    throw NetworkError(std::string(shape.what) + " that could not be read (unexpected shape)");
  }
  OfferListPage page;
  page.total = count->GetUint64();
  page.results = items->Size();
  for (const auto& item : items->GetArray()) {
    if (auto o = read_one(item)) page.offers.push_back(std::move(*o));
  }
  return page;
}

}  // namespace placard::network
