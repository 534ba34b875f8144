#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include "lib/store/ignored_reason.h"

namespace placard::db {

using ClientHash = std::array<unsigned char, 16>;

struct EventRecord {
  std::array<unsigned char, 16> nonce{};  // the token's identity
  std::uint64_t offer_id = 0;
  std::string placement;
  std::string country;
  std::int64_t issued_at = 0;
  // Keyed hash of the client address under the day's key (see api::ClientHasher); all zero:
  // unknown (never limited).
  ClientHash client{};
  IgnoredReason ignored = IgnoredReason::none;
};

// Impressions, deduplicated by the token nonce (a unique key in the database, so it holds
// across threads, processes, hosts and restarts). Clicks: see ClickStore.
class EventStore {
 public:
  virtual ~EventStore() = default;
  // True when this call recorded it; false when it was already recorded.
  virtual bool record_impression(const EventRecord& event) = 0;
  // What record_impression returns, or what it threw.
  using Recorded = std::function<void(bool recorded, const std::exception_ptr& error)>;
  // record_impression, with the result given to `done` on whichever thread has it (the event
  // writer's, after its commit), so that the caller need not wait. By default: here and now.
  virtual void record_impression_then(const EventRecord& event, const Recorded& done) {
    bool recorded = false;
    try {
      recorded = record_impression(event);
    } catch (...) {
      done(false, std::current_exception());
      return;
    }
    done(recorded, nullptr);
  }
  virtual bool impression_recorded(const std::array<unsigned char, 16>& nonce) = 0;
};

}  // namespace placard::db
