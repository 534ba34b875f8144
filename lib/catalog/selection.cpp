#include "lib/catalog/selection.h"

#include <algorithm>
#include <utility>

namespace placard::catalog {

namespace {

// Appends up to `need` random valid offers of tier [begin, end), in random order.
void take_from_tier(std::span<const LiveOffer> offers, std::span<const std::uint32_t> tier,
                    std::size_t need, std::int64_t now, util::FastRng& rng,
                    std::vector<std::uint32_t>& out) {
  const std::size_t start = out.size();
  const auto chosen = [&](std::uint32_t idx) {
    return std::find(out.begin() + static_cast<std::ptrdiff_t>(start), out.end(), idx) != out.end();
  };
  if (tier.size() > 2 * need + 8) {
    // Large tier: probe random positions; each probe picks any entry with equal chance.
    const std::size_t max_probes = 4 * need + 32;
    for (std::size_t probe = 0; probe < max_probes && out.size() - start < need; ++probe) {
      const std::uint32_t idx = tier[rng.below(tier.size())];
      if (offers[idx].valid_at(now) && !chosen(idx)) out.push_back(idx);
    }
    if (out.size() - start == need) return;
    out.resize(start);  // many entries outside their window: fall back to a full pass (rare)
  }
  for (const std::uint32_t idx : tier) {
    if (offers[idx].valid_at(now)) out.push_back(idx);
  }
  // Partial Fisher-Yates: the first `need` places get a uniform random choice.
  const std::size_t found = out.size() - start;
  const std::size_t keep = std::min(need, found);
  for (std::size_t i = 0; i < keep; ++i) {
    const std::size_t j = i + rng.below(found - i);
    std::swap(out[start + i], out[start + j]);
  }
  out.resize(start + keep);
}

}  // namespace

std::vector<std::uint32_t> select_offers(std::span<const LiveOffer> offers,
                                         std::span<const std::uint32_t> candidates,
                                         std::size_t want, std::int64_t now, util::FastRng& rng) {
  std::vector<std::uint32_t> out;
  out.reserve(want);
  std::size_t pos = 0;
  while (out.size() < want && pos < candidates.size()) {
    const std::int32_t priority = offers[candidates[pos]].priority;
    const auto tier_end = std::partition_point(
        candidates.begin() + static_cast<std::ptrdiff_t>(pos), candidates.end(),
        [&](std::uint32_t idx) { return offers[idx].priority >= priority; });
    const auto end = static_cast<std::size_t>(tier_end - candidates.begin());
    take_from_tier(offers, candidates.subspan(pos, end - pos), want - out.size(), now, rng, out);
    pos = end;
  }
  return out;
}

}  // namespace placard::catalog
