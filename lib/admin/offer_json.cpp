#include "lib/admin/offer_json.h"

#include "lib/admin/json_out.h"

namespace placard::admin {

namespace {
void write_strings(json::Writer& w, const std::vector<std::string>& items) {
  w.StartArray();
  for (const auto& s : items) w.String(s);
  w.EndArray();
}
}  // namespace

void write_offer(json::Writer& w, const db::AdminOffer& o) {
  w.StartObject();
  w.Key("id");
  write_id(w, o.id);
  w.Key("title");
  w.String(o.title);
  w.Key("description");
  write_string_or_null(w, o.description);
  w.Key("merchant");
  write_string_or_null(w, o.merchant);
  w.Key("imageUrl");
  write_string_or_null(w, o.image_url);
  w.Key("category");
  write_string_or_null(w, o.category);
  w.Key("couponCode");
  write_string_or_null(w, o.coupon_code);
  w.Key("validUntil");
  write_time(w, o.valid_until);
  w.Key("isDemo");
  w.Bool(o.is_demo);
  w.Key("network");
  w.String(o.network);
  w.Key("externalId");
  write_string_or_null(w, o.external_id);
  w.Key("trackingUrl");
  write_string_or_null(w, o.tracking_url);
  w.Key("countries");
  write_strings(w, o.countries);
  w.Key("allCountries");
  w.Bool(o.all_countries);
  w.Key("priority");
  w.Int(o.priority);
  w.Key("enabled");
  w.Bool(o.enabled);
  w.Key("validFrom");
  write_time(w, o.valid_from);
  w.Key("createdAt");
  write_time(w, o.created_at);
  w.Key("updatedAt");
  write_time(w, o.updated_at);
  w.Key("overrides");
  write_strings(w, o.overrides);
  w.EndObject();
}

std::string offer_json(const db::AdminOffer& o) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  write_offer(w, o);
  return json::to_string(buf);
}

}  // namespace placard::admin
