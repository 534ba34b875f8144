#pragma once
#include <string>

#include "lib/json/writer.h"
#include "lib/store/offer_admin_store.h"

namespace placard::admin {

// An offer as the admin API shows it (contract 6.1): the public query's fields without tokens
// (id, title, description, merchant, imageUrl, category, couponCode, validUntil, isDemo), then
// network, externalId, trackingUrl, countries, priority, enabled, validFrom, createdAt,
// updatedAt, overrides.
void write_offer(json::Writer& w, const db::AdminOffer& o);
std::string offer_json(const db::AdminOffer& o);

}  // namespace placard::admin
