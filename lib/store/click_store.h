#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>

#include "lib/store/event_store.h"

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

// A click in one database round: the offer as the database has it now, and the click recorded
// (once per token nonce) when the caller's decision says so.
class ClickStore {
 public:
  // Given the offer (nullopt: no such offer), the click to record, or nullopt for none.
  using Decide = std::function<std::optional<EventRecord>(const std::optional<OfferTarget>&)>;

  virtual ~ClickStore() = default;
  // decide runs exactly once, possibly on another thread, while this call waits; what it
  // returns is committed before this returns. Gives back the offer decide was shown.
  virtual std::optional<OfferTarget> follow(std::uint64_t offer_id, const Decide& decide) = 0;
  // What follow returns, or what it threw.
  using Followed =
      std::function<void(std::optional<OfferTarget> offer, const std::exception_ptr& error)>;
  // follow, with the result given to `done` on whichever thread has it (the event writer's,
  // after its commit), so that the caller need not wait. By default: here and now.
  virtual void follow_then(std::uint64_t offer_id, const Decide& decide, const Followed& done) {
    std::optional<OfferTarget> offer;
    try {
      offer = follow(offer_id, decide);
    } catch (...) {
      done(std::nullopt, std::current_exception());
      return;
    }
    done(std::move(offer), nullptr);
  }
  // A click answered but not counted (event.ignored set: HEAD, prefetch, crawler), judged by the
  // caller against the catalog snapshot: written to ignored_events (once per token and reason)
  // without reading the offer.
  virtual void record_ignored(const EventRecord& event) = 0;
  // While the database is unreachable: keeps a click (counted or ignored) that the catalog
  // snapshot shows valid, durably, to be written once when the database returns (the host's
  // click journal, lib/journal). False: no journal, or it cannot take the click (503 stands).
  virtual bool keep_for_later(const EventRecord& /*event*/) { return false; }
};

}  // namespace placard::db
