#include "lib/catalog/snapshot.h"

#include <algorithm>

namespace placard::catalog {

std::optional<std::uint16_t> Snapshot::country_index(std::string_view code) const {
  const auto it = std::lower_bound(countries.begin(), countries.end(), code);
  if (it == countries.end() || *it != code) return std::nullopt;
  return static_cast<std::uint16_t>(it - countries.begin());
}

std::span<const std::uint32_t> Snapshot::candidates(std::optional<std::uint32_t> category,
                                                    std::uint16_t country) const {
  const auto key = index_key(category, country);
  const auto it = std::lower_bound(index.begin(), index.end(), key,
                                   [](const IndexRange& r, std::uint64_t k) { return r.key < k; });
  if (it == index.end() || it->key != key) return {};
  return std::span<const std::uint32_t>(index_entries).subspan(it->first, it->count);
}

std::string_view Snapshot::offer_text(const LiveOffer& offer, int field) const {
  std::size_t start = offer.text_offset;
  for (int i = 0; i < field; ++i) start += offer.text_len[i];
  return std::string_view(text).substr(start, offer.text_len[field]);
}

const ClickTarget* Snapshot::click_target(std::uint64_t id) const {
  const auto it = std::lower_bound(click_targets.begin(), click_targets.end(), id,
                                   [](const ClickTarget& t, std::uint64_t v) { return t.id < v; });
  return it != click_targets.end() && it->id == id ? &*it : nullptr;
}

std::string_view network_name(ClickTarget::Network n) {
  switch (n) {
    case ClickTarget::Network::admitad:
      return "admitad";
    case ClickTarget::Network::awin:
      return "awin";
    case ClickTarget::Network::manual:
      break;
  }
  return "manual";
}

}  // namespace placard::catalog
