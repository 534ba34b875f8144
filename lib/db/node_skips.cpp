#include "lib/db/node_skips.h"

#include <algorithm>
#include <utility>

namespace placard::db {

NodeSkips::NodeSkips(std::chrono::milliseconds skip_for) : skip_for_(skip_for) {}

std::vector<std::size_t> NodeSkips::order(const std::vector<std::string>& nodes,
                                          Clock::time_point now) const {
  std::vector<std::size_t> first;
  std::vector<std::pair<Clock::time_point, std::size_t>> last;
  {
    const std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const auto it = skip_until_.find(nodes[i]);
      if (it != skip_until_.end() && now < it->second) {
        last.emplace_back(it->second, i);
      } else {
        first.push_back(i);
      }
    }
  }
  // The skipped ones: the one whose skip ends first (it failed longest ago) first.
  std::stable_sort(last.begin(), last.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& s : last) first.push_back(s.second);
  return first;
}

void NodeSkips::failed(const std::string& node, Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  skip_until_[node] = now + skip_for_;
}

bool NodeSkips::skipping(const std::string& node, Clock::time_point now) const {
  const std::lock_guard lock(mutex_);
  const auto it = skip_until_.find(node);
  return it != skip_until_.end() && now < it->second;
}

}  // namespace placard::db
