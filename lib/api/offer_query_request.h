#pragma once
#include <optional>
#include <string>

#include "lib/json/rapidjson.h"
#include "lib/util/version.h"

namespace placard::api {

// The validated body of POST /api/v1/offers/query (contract section 3).
struct OfferQueryRequest {
  std::string country;
  std::string placement;
  util::Version extension_version;
  std::optional<std::string> category;
  std::optional<int> limit;
};

// Checks the fields in the contract's order (country, placement, extensionVersion, category,
// limit); the first broken rule throws ApiError 400 missing_field / invalid_field with `field`.
OfferQueryRequest parse_offer_query(const rapidjson::Value& body);

bool is_country_code(std::string_view s);
bool is_placement_name(std::string_view s);
bool is_category_path(std::string_view s);

}  // namespace placard::api
