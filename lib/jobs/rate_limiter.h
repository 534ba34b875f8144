#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "lib/store/event_store.h"

namespace placard::db {

// One sliding window of a per-client limit: at most `limit` counted events per client and offer
// within any `seconds` (limit 0: this window is off).
struct RateWindow {
  std::int64_t seconds = 0;
  int limit = 0;
};

// The windows of impressions and of clicks (from catalog::Settings).
struct RateLimits {
  std::vector<RateWindow> impressions;
  std::vector<RateWindow> clicks;
};

// Decides, event by event in the order they were recorded, which events of a client and offer
// go over a limit. Only counted events fill a window: an event over the limit is not counted and
// does not count against the next ones. Times are milliseconds (the raw tables' DATETIME(3)).
class RateJudge {
 public:
  using Key = std::pair<ClientHash, std::uint64_t>;  // client, offer

  explicit RateJudge(const std::vector<RateWindow>& windows);

  // False when every window is off: nothing can go over.
  bool active() const { return longest_ms_ > 0; }
  // The longest window in milliseconds: how far back the history must reach.
  std::int64_t longest_ms() const { return longest_ms_; }

  // A counted event from before the events being judged (any order).
  void remember(const Key& key, std::int64_t at_ms);
  // Judges the next event (in recording order): true when it goes over a limit (not counted);
  // false when it is counted (and remembered).
  bool over_limit(const Key& key, std::int64_t at_ms);
  // The counted times of `key` remembered or judged so far, ascending; those that no window could
  // reach from the latest event judged for it are gone.
  std::vector<std::int64_t> counted(const Key& key) const;

 private:
  std::vector<RateWindow> windows_;
  std::int64_t longest_ms_ = 0;
  std::map<Key, std::deque<std::int64_t>> counted_;  // per key, ascending times
};

// An event of the raw tables as the rollup step's limit judging reads it.
struct JudgedEvent {
  std::uint64_t id = 0;  // 0 for history (not judged again)
  RateJudge::Key key;
  std::int64_t at_ms = 0;
};

// One rollup pass's judging (rollup_step.cpp): the judge first remembers `history`, the events
// counted in earlier passes (any order), then judges `fresh`, the new events in id order.
// Returns the ids of the fresh events over a limit. Without the history, a client whose earlier
// events were counted in an earlier pass would start every pass with empty windows.
std::vector<std::uint64_t> rate_limited_ids(RateJudge& judge,
                                            const std::vector<JudgedEvent>& history,
                                            const std::vector<JudgedEvent>& fresh);

}  // namespace placard::db
