#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/network/adapter.h"

namespace placard::network {

// Fields an administrator changed on an imported offer (offers.overrides); a sync keeps them.
struct Overrides {
  bool enabled = false;
  bool priority = false;
  bool category = false;
  bool countries = false;
  bool validity = false;
};

// An imported offer of the network as the catalog holds it before the sync.
struct ExistingOffer {
  std::uint64_t id = 0;
  std::string external_id;
  bool enabled = true;
  Overrides overrides;
};

// A pulled offer ready to write: its Placard category from the category map (nullopt: not
// mapped, imported but not served).
struct PlannedOffer {
  NetworkOffer offer;
  std::optional<std::uint32_t> category_id;
};

struct PlannedUpdate {
  std::uint64_t id = 0;
  PlannedOffer planned;
  Overrides keep;      // columns the store must not write
  bool enable = true;  // written unless keep.enabled: an offer back in the answer is enabled
};

// What one sync run writes, decided before any write, so the store applies it in one
// transaction (all or nothing) and the catalog version is bumped once.
struct SyncPlan {
  std::vector<PlannedOffer> create;
  std::vector<PlannedUpdate> update;
  std::vector<std::uint64_t> disable;  // gone from the answer, or past their end
  std::vector<std::pair<std::string, std::string>> categories_seen;  // id, name; first name wins
  std::uint32_t skipped = 0;  // tracking URL not http(s), or an external id repeated
};

// The import rules of contract section 8:
// - upsert by external id; an existing offer absent from the pull is disabled (never deleted);
// - an offer past its end (valid_until <= now) is disabled when it exists, not created when new;
//   an administrator's validity override keeps an existing one as it is;
// - an administrator's overrides are kept (`keep`), including `enabled`;
// - a tracking URL that is not http(s) is skipped and counted, as is a repeated external id;
// - the category is the first of the offer's network categories that is mapped.
SyncPlan plan_sync(const std::vector<NetworkOffer>& pulled,
                   const std::vector<ExistingOffer>& existing,
                   const std::map<std::string, std::optional<std::uint32_t>>& category_map,
                   std::int64_t now);

// offer_url_allowed (url_policy.h): the rule the admin API applies to manual offers too.
bool trackable_url(const std::string& url);

}  // namespace placard::network
