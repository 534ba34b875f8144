#include "lib/network/sync_plan.h"

#include <set>
#include <unordered_map>

#include "lib/network/url_policy.h"

namespace placard::network {

bool trackable_url(const std::string& url) {
  return offer_url_allowed(url);
}

SyncPlan plan_sync(const std::vector<NetworkOffer>& pulled,
                   const std::vector<ExistingOffer>& existing,
                   const std::map<std::string, std::optional<std::uint32_t>>& category_map,
                   std::int64_t now) {
  SyncPlan plan;
  std::unordered_map<std::string, const ExistingOffer*> by_external;
  for (const auto& e : existing) by_external.emplace(e.external_id, &e);
  std::set<std::string> seen_ids;
  std::set<std::string> seen_categories;
  std::set<std::uint64_t> kept;

  for (const auto& o : pulled) {
    for (const auto& [id, name] : o.categories) {
      if (seen_categories.insert(id).second) plan.categories_seen.emplace_back(id, name);
    }
    if (!trackable_url(o.tracking_url) || !seen_ids.insert(o.external_id).second) {
      ++plan.skipped;
      continue;
    }
    PlannedOffer p{o, std::nullopt};
    for (const auto& [id, name] : o.categories) {
      const auto it = category_map.find(id);
      if (it != category_map.end() && it->second) {
        p.category_id = it->second;
        break;
      }
    }
    const bool ended = o.valid_until && *o.valid_until <= now;
    const auto found = by_external.find(o.external_id);
    if (found == by_external.end()) {
      if (!ended) plan.create.push_back(std::move(p));
      continue;
    }
    const ExistingOffer& e = *found->second;
    if (ended && !e.overrides.validity) {
      if (e.enabled && !e.overrides.enabled) plan.disable.push_back(e.id);
      kept.insert(e.id);
      continue;
    }
    kept.insert(e.id);
    plan.update.push_back({e.id, std::move(p), e.overrides, true});
  }
  for (const auto& e : existing) {
    if (!kept.count(e.id) && e.enabled) plan.disable.push_back(e.id);
  }
  return plan;
}

}  // namespace placard::network
