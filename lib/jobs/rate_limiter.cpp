#include "lib/jobs/rate_limiter.h"

#include <algorithm>

namespace placard::db {

RateJudge::RateJudge(const std::vector<RateWindow>& windows) {
  for (const auto& w : windows) {
    if (w.limit <= 0 || w.seconds <= 0) continue;
    windows_.push_back(w);
    longest_ms_ = std::max(longest_ms_, w.seconds * 1000);
  }
}

void RateJudge::remember(const Key& key, std::int64_t at_ms) {
  auto& times = counted_[key];
  times.insert(std::upper_bound(times.begin(), times.end(), at_ms), at_ms);
}

bool RateJudge::over_limit(const Key& key, std::int64_t at_ms) {
  if (!active()) return false;
  auto& times = counted_[key];
  // Times that no window can reach any more.
  while (!times.empty() && times.front() <= at_ms - longest_ms_) times.pop_front();
  for (const auto& w : windows_) {
    const std::int64_t from = at_ms - w.seconds * 1000;  // the window is (from, at_ms]
    // (A counted time a little after at_ms, from another host's writer, counts too.)
    const auto in_window =
        std::count_if(times.begin(), times.end(), [&](std::int64_t t) { return t > from; });
    if (in_window >= w.limit) return true;
  }
  times.insert(std::upper_bound(times.begin(), times.end(), at_ms), at_ms);
  return false;
}

std::vector<std::int64_t> RateJudge::counted(const Key& key) const {
  const auto it = counted_.find(key);
  if (it == counted_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

std::vector<std::uint64_t> rate_limited_ids(RateJudge& judge,
                                            const std::vector<JudgedEvent>& history,
                                            const std::vector<JudgedEvent>& fresh) {
  for (const auto& e : history) judge.remember(e.key, e.at_ms);
  std::vector<std::uint64_t> over;
  for (const auto& e : fresh) {
    if (judge.over_limit(e.key, e.at_ms)) over.push_back(e.id);
  }
  return over;
}

}  // namespace placard::db
