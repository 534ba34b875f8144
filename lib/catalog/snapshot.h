#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/catalog/settings.h"

namespace placard::catalog {

inline constexpr std::int64_t kOpenStart = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kOpenEnd = std::numeric_limits<std::int64_t>::max();

struct CategoryNode {
  std::uint32_t id = 0;
  std::string path;
  std::string name;
  std::string icon;
  int display_order = 0;
  bool enabled = false;                 // it and every ancestor are enabled
  int parent = -1;                      // node index
  std::vector<std::uint32_t> children;  // node indices, sorted by display order then path
};

// Enabled, not yet expired offer, compact. Its JSON values live in Snapshot::text.
struct LiveOffer {
  std::uint64_t id = 0;
  std::int64_t valid_from = kOpenStart;
  std::int64_t valid_until = kOpenEnd;
  std::int32_t priority = 0;
  std::uint32_t category = 0;     // node index
  std::uint32_t text_offset = 0;  // into Snapshot::text
  // Lengths of the pre-escaped JSON values, in order: id, title, description, merchant,
  // imageUrl, couponCode, validUntil (each a JSON literal: "..." or null).
  std::uint16_t text_len[7] = {};
  bool is_demo = false;

  bool valid_at(std::int64_t now) const { return valid_from <= now && now < valid_until; }
};

// What a click needs of an offer that is not a demonstration record, in any state (disabled,
// expired): an unknown id is 404 before the token is judged, and a click that is answered but not
// counted (HEAD, prefetch, crawler) is answered from here, without a database read.
struct ClickTarget {
  enum class Network : std::uint8_t { manual, admitad, awin };
  std::uint64_t id = 0;
  std::int64_t valid_from = kOpenStart;
  std::int64_t valid_until = kOpenEnd;
  std::uint32_t url_offset = 0;  // into Snapshot::click_urls
  std::uint16_t url_len = 0;
  bool has_url = false;
  bool enabled = false;
  Network network = Network::manual;
};

std::string_view network_name(ClickTarget::Network n);

// An immutable picture of everything the read path needs. Built from the database whenever
// the catalog version changes; shared read-only by all request threads.
struct Snapshot {
  std::uint64_t version = 0;
  std::int64_t built_at = 0;  // unix seconds the builder was given (the metrics' snapshot age)
  Settings settings;

  // Pre-rendered answers: JSON, its gzip, and the ETag of each representation.
  struct CachedAnswer {
    std::string json;
    std::string etag;
    std::string gzip;
    std::string gzip_etag;
  };
  CachedAnswer config_answer;
  CachedAnswer categories_answer;

  std::vector<std::string> countries;               // selected, sorted; index = country index
  std::unordered_map<std::string, int> placements;  // enabled name -> maxOffers
  std::vector<CategoryNode> categories;
  std::unordered_map<std::string, std::uint32_t> enabled_category_by_path;

  std::vector<LiveOffer> offers;
  std::string text;
  // Candidate lists, sorted by priority (highest first), one after another in index_entries;
  // index: one range of them per key(category node or all, country), sorted by key. Two blocks
  // rather than a vector (or a hash node) per key: made while the builder's temporary lists were
  // alive, thousands of small blocks landed in the holes those lists left and kept ~6 MiB of
  // freed pages from going back to the system after each rebuild (issue 24: VmRSS after a second
  // 100,000-offer rebuild, 70.5 -> 64.6 MiB with index_entries alone).
  struct IndexRange {
    std::uint64_t key = 0;
    std::uint32_t first = 0;  // into index_entries
    std::uint32_t count = 0;
  };
  std::vector<IndexRange> index;
  std::vector<std::uint32_t> index_entries;

  std::vector<ClickTarget> click_targets;  // sorted by id; see CatalogBase
  std::string click_urls;                  // the tracking URLs of click_targets

  std::optional<std::uint16_t> country_index(std::string_view code) const;
  // True when an offer of that id exists and is not a demonstration record (any state).
  bool is_clickable_offer(std::uint64_t id) const { return click_target(id) != nullptr; }
  const ClickTarget* click_target(std::uint64_t id) const;  // nullptr: unknown or demo
  std::string_view click_url(const ClickTarget& target) const {
    return std::string_view(click_urls).substr(target.url_offset, target.url_len);
  }
  // Offers of a category's subtree (or of every category when nullopt) in a country.
  std::span<const std::uint32_t> candidates(std::optional<std::uint32_t> category,
                                            std::uint16_t country) const;
  std::string_view offer_text(const LiveOffer& offer, int field) const;

  static std::uint64_t index_key(std::optional<std::uint32_t> category, std::uint16_t country) {
    const std::uint64_t c = category ? static_cast<std::uint64_t>(*category) + 1 : 0;
    return (c << 16) | country;
  }
};

}  // namespace placard::catalog
