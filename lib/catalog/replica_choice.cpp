#include "lib/catalog/replica_choice.h"

namespace placard::catalog {

ReplicaChoice::ReplicaChoice(std::chrono::milliseconds max_lag,
                             std::chrono::milliseconds retry_after)
    : max_lag_(max_lag), retry_after_(retry_after) {}

bool ReplicaChoice::ask_replica(Clock::time_point now) const {
  return !skip_until_ || now >= *skip_until_;
}

ReadFrom ReplicaChoice::choose(std::uint64_t wanted, std::optional<std::uint64_t> replica_version,
                               Clock::time_point now) {
  if (!replica_version) return ReadFrom::primary;
  skip_until_.reset();
  if (*replica_version >= wanted) {
    behind_.reset();
    return ReadFrom::replica;
  }
  // Behind: the clock starts at the first sight of the replica behind (not per version: a
  // replica that keeps falling behind newer versions is still behind since then), and again once
  // it has caught up with the version it was behind on then. A replica stopped and started again
  // was otherwise still "behind since" its stop at the next change, and that change, a few ms
  // from being replicated, loaded from the primary at once.
  if (!behind_ || *replica_version >= behind_->of) behind_ = Behind{now, wanted};
  return now - behind_->since >= max_lag_ ? ReadFrom::primary : ReadFrom::wait;
}

void ReplicaChoice::replica_failed(Clock::time_point now) {
  skip_until_ = now + retry_after_;
}

std::optional<ReplicaChoice::Clock::time_point> ReplicaChoice::behind_since() const {
  if (!behind_) return std::nullopt;
  return behind_->since;
}

}  // namespace placard::catalog
