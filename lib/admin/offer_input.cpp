#include "lib/admin/offer_input.h"

#include <algorithm>

#include "lib/admin/body.h"
#include "lib/admin/web_url.h"
#include "lib/api/offer_query_request.h"
#include "lib/http/api_error.h"
#include "lib/network/url_policy.h"

namespace placard::admin {

namespace {

constexpr std::int64_t kLatestTime = 253402300799;  // 9999-12-31T23:59:59Z

// Absent or null -> nullopt; otherwise a string of min..max characters.
std::optional<std::string> nullable_string(const Body& body, std::string_view name,
                                           std::size_t min_chars, std::size_t max_chars) {
  if (!body.has(name) || body.is_null(name)) return std::nullopt;
  return body.opt_string(name, min_chars, max_chars);
}

// Absent or null -> nullopt; otherwise an http(s) URL of the form is_web_url accepts that the
// offer URL policy allows (the one the importer applies: no user information).
std::optional<std::string> nullable_url(const Body& body, std::string_view name) {
  if (!body.has(name) || body.is_null(name)) return std::nullopt;
  const auto& v = body.value(name);
  const std::string field(name);
  const std::string_view text =
      v.IsString() ? std::string_view(v.GetString(), v.GetStringLength()) : std::string_view();
  if (!v.IsString() || !is_web_url(text) || !network::offer_url_allowed(text)) {
    throw http::invalid_field(field, field +
                                         " must be an http or https URL with a host and no user "
                                         "information, at most " +
                                         std::to_string(kMaxUrlChars) + " characters");
  }
  return std::string(v.GetString(), v.GetStringLength());
}

std::optional<std::optional<std::int64_t>> offer_time(const Body& body, std::string_view name) {
  auto t = body.opt_nullable_time(name);
  if (t && *t && (**t < 0 || **t > kLatestTime)) {
    const std::string field(name);
    throw http::invalid_field(field, field +
                                         " must lie between 1970-01-01T00:00:00Z and "
                                         "9999-12-31T23:59:59Z");
  }
  return t;
}

std::optional<std::string> category_path(const Body& body) {
  if (!body.has("category")) return std::nullopt;
  const auto& v = body.value("category");
  if (!v.IsString() ||
      !api::is_category_path(std::string_view(v.GetString(), v.GetStringLength()))) {
    throw http::invalid_field("category",
                              "category must be a dotted path such as electronics.phones");
  }
  return std::string(v.GetString(), v.GetStringLength());
}

std::optional<std::vector<std::string>> country_list(const Body& body) {
  auto codes = body.opt_string_array("countries", kMaxOfferCountries);
  if (!codes) return codes;
  for (std::size_t i = 0; i < codes->size(); ++i) {
    if (!api::is_country_code((*codes)[i])) {
      const std::string field = "countries[" + std::to_string(i) + "]";
      throw http::invalid_field(field, field + " must be a country code such as DE");
    }
  }
  return codes;
}

void check_window(const std::optional<std::int64_t>& from, const std::optional<std::int64_t>& until,
                  const std::string& field) {
  if (from && until && *from >= *until) {
    throw http::invalid_field(field, "validFrom must be earlier than validUntil");
  }
}

}  // namespace

OfferCreateInput parse_offer_create(http::Request& request) {
  const Body body(request, {"title", "description", "merchant", "imageUrl", "couponCode",
                            "category", "countries", "priority", "enabled", "isDemo", "trackingUrl",
                            "validFrom", "validUntil"});
  OfferCreateInput in;
  auto& o = in.offer;
  o.title = body.string("title", 1, 200);
  o.description = nullable_string(body, "description", 0, 2000);
  o.merchant = nullable_string(body, "merchant", 0, 200);
  o.image_url = nullable_url(body, "imageUrl");
  o.coupon_code = nullable_string(body, "couponCode", 0, 64);
  const auto category = category_path(body);
  if (!category) throw http::missing_field("category");
  in.category = *category;
  in.countries = country_list(body).value_or(std::vector<std::string>{});
  o.priority =
      static_cast<int>(body.opt_integer("priority", kMinPriority, kMaxPriority).value_or(0));
  o.enabled = body.opt_boolean("enabled").value_or(true);
  o.is_demo = body.opt_boolean("isDemo").value_or(false);
  if (o.is_demo) {
    if (body.has("trackingUrl") && !body.is_null("trackingUrl")) {
      throw http::invalid_field("trackingUrl", "A demonstration offer has no trackingUrl");
    }
  } else {
    if (!body.has("trackingUrl")) throw http::missing_field("trackingUrl");
    if (body.is_null("trackingUrl")) {
      throw http::invalid_field("trackingUrl", "A manual offer needs a trackingUrl");
    }
    o.tracking_url = nullable_url(body, "trackingUrl");
  }
  o.valid_from = offer_time(body, "validFrom").value_or(std::nullopt);
  o.valid_until = offer_time(body, "validUntil").value_or(std::nullopt);
  check_window(o.valid_from, o.valid_until, "validUntil");
  return in;
}

OfferPatchInput parse_offer_patch(http::Request& request) {
  const Body body(request, {"enabled", "priority", "validFrom", "validUntil", "category",
                            "countries", "isDemo"});
  OfferPatchInput p;
  p.enabled = body.opt_boolean("enabled");
  if (const auto n = body.opt_integer("priority", kMinPriority, kMaxPriority)) {
    p.priority = static_cast<int>(*n);
  }
  p.valid_from = offer_time(body, "validFrom");
  p.valid_until = offer_time(body, "validUntil");
  if (p.valid_from && p.valid_until) check_window(*p.valid_from, *p.valid_until, "validUntil");
  p.category = category_path(body);
  p.countries = country_list(body);
  p.is_demo = body.opt_boolean("isDemo");
  return p;
}

std::vector<std::string> merged_overrides(const std::vector<std::string>& had,
                                          const OfferPatchInput& patch) {
  const auto keep = [&](std::string_view name, bool set_now) {
    return set_now || std::find(had.begin(), had.end(), name) != had.end();
  };
  std::vector<std::string> out;
  if (keep("enabled", patch.enabled.has_value())) out.emplace_back("enabled");
  if (keep("priority", patch.priority.has_value())) out.emplace_back("priority");
  if (keep("category", patch.category.has_value())) out.emplace_back("category");
  if (keep("countries", patch.countries.has_value())) out.emplace_back("countries");
  if (keep("validity", patch.valid_from.has_value() || patch.valid_until.has_value())) {
    out.emplace_back("validity");
  }
  return out;
}

}  // namespace placard::admin
