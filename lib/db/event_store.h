#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace placard::db {

struct EventRecord {
  std::array<unsigned char, 16> nonce{};  // the token's identity
  std::uint64_t offer_id = 0;
  std::string placement;
  std::string country;
  std::int64_t issued_at = 0;
};

// Impressions, deduplicated by the token nonce (a unique key in the database, so it holds
// across threads, processes, hosts and restarts). Clicks: see ClickStore.
class EventStore {
 public:
  virtual ~EventStore() = default;
  // True when this call recorded it; false when it was already recorded.
  virtual bool record_impression(const EventRecord& event) = 0;
  virtual bool impression_recorded(const std::array<unsigned char, 16>& nonce) = 0;
};

}  // namespace placard::db
