#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "lib/catalog/snapshot.h"
#include "lib/util/fast_rng.h"

namespace placard::catalog {

// Picks up to `want` offers from a candidate list sorted by priority (highest first):
// only offers valid at `now`, no duplicates, higher priority first, and among equal priority a
// uniformly random choice in random order, so every eligible offer leads equally often over
// many queries. Touches O(want) entries of the list in the usual case, never the whole catalog.
std::vector<std::uint32_t> select_offers(std::span<const LiveOffer> offers,
                                         std::span<const std::uint32_t> candidates,
                                         std::size_t want, std::int64_t now, util::FastRng& rng);

}  // namespace placard::catalog
