#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/http/request.h"
#include "lib/store/offer_admin_store.h"

namespace placard::admin {

inline constexpr int kMinPriority = -1000;
inline constexpr int kMaxPriority = 1000;
inline constexpr std::size_t kMaxOfferCountries = 300;

// POST /offers: the body (Body: section 0 rules, a field the offer does not have is 400
// invalid_field), then every field checked for its form (not yet against the database), in this
// order: title, description, merchant, imageUrl, couponCode, category, countries, priority,
// enabled, isDemo, trackingUrl, validFrom, validUntil (and validFrom < validUntil). The first
// broken rule throws 400 missing_field / invalid_field naming the field.
struct OfferCreateInput {
  db::NewOffer offer;  // category_id and countries not yet filled in
  std::string category;
  std::vector<std::string> countries;  // as given (well-formed codes)
};
OfferCreateInput parse_offer_create(http::Request& request);

// PATCH /offers/{id}: the fields present, each checked for its form, in this order: enabled,
// priority, validFrom, validUntil, category, countries, isDemo.
struct OfferPatchInput {
  std::optional<bool> enabled;
  std::optional<int> priority;
  std::optional<std::optional<std::int64_t>> valid_from;
  std::optional<std::optional<std::int64_t>> valid_until;
  std::optional<std::string> category;
  std::optional<std::vector<std::string>> countries;
  std::optional<bool> is_demo;

  bool empty() const {
    return !enabled && !priority && !valid_from && !valid_until && !category && !countries &&
           !is_demo;
  }
};
OfferPatchInput parse_offer_patch(http::Request& request);

// The overrides of an imported offer after a PATCH: those it had, and the fields the PATCH
// sets (validFrom and validUntil are "validity"), in the order enabled, priority, category,
// countries, validity.
std::vector<std::string> merged_overrides(const std::vector<std::string>& had,
                                          const OfferPatchInput& patch);

}  // namespace placard::admin
