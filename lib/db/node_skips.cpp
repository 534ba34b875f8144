#include "lib/db/node_skips.h"

namespace placard::db {

NodeSkips::NodeSkips(std::chrono::milliseconds skip_for) : skip_for_(skip_for) {}

std::vector<std::size_t> NodeSkips::order(const std::vector<std::string>& nodes,
                                          Clock::time_point now) const {
  std::vector<std::size_t> first;
  std::vector<std::size_t> last;
  {
    const std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const auto it = skip_until_.find(nodes[i]);
      (it != skip_until_.end() && now < it->second ? last : first).push_back(i);
    }
  }
  first.insert(first.end(), last.begin(), last.end());
  return first;
}

void NodeSkips::failed(const std::string& node, Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  skip_until_[node] = now + skip_for_;
}

void NodeSkips::succeeded(const std::string& node) {
  const std::lock_guard lock(mutex_);
  skip_until_.erase(node);
}

bool NodeSkips::skipping(const std::string& node, Clock::time_point now) const {
  const std::lock_guard lock(mutex_);
  const auto it = skip_until_.find(node);
  return it != skip_until_.end() && now < it->second;
}

}  // namespace placard::db
