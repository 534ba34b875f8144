#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace placard::db {

// What the click endpoint needs of an offer, read from the database at click time.
struct OfferTarget {
  std::uint64_t id = 0;
  bool enabled = false;
  bool is_demo = false;
  std::string network;  // manual | admitad | awin
  std::optional<std::string> tracking_url;
  std::optional<std::int64_t> valid_from;
  std::optional<std::int64_t> valid_until;
};

class OfferTargets {
 public:
  virtual ~OfferTargets() = default;
  virtual std::optional<OfferTarget> find(std::uint64_t offer_id) = 0;
};

}  // namespace placard::db
