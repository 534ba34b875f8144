#pragma once
// Which database nodes of db.host a new connection tries first (several nodes: a Galera cluster).
#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace placard::db {

// A node that refused a connection, timed out, or dropped one (the server gone) is skipped for
// skip_for: new connections try the other nodes first, so requests do not each pay a connect
// timeout to a dead node. Skipped nodes are still tried last, the one that failed longest ago
// first: with every node skipped (or only one), each is still tried. A skip ends when its time is
// up, not when a connection to the node succeeds: a Galera node outside the primary component takes
// connections and fails the first statement (1047), and other threads connecting to it must
// not take it back. Shared by the sessions made from one ConnectionParams (threads of one
// process); thread-safe.
class NodeSkips {
 public:
  using Clock = std::chrono::steady_clock;
  explicit NodeSkips(std::chrono::milliseconds skip_for = std::chrono::seconds(10));

  // The indexes of `nodes` (their addresses) in the order to try them at `now`: those not
  // skipped, in their order, then the skipped ones, the one whose skip ends first first.
  std::vector<std::size_t> order(const std::vector<std::string>& nodes,
                                 Clock::time_point now) const;
  // The node failed at `now`: skipped until now + skip_for.
  void failed(const std::string& node, Clock::time_point now);
  // Whether the node is skipped at `now` (for the tests and the log).
  bool skipping(const std::string& node, Clock::time_point now) const;

 private:
  std::chrono::milliseconds skip_for_;
  mutable std::mutex mutex_;
  std::map<std::string, Clock::time_point> skip_until_;
};

}  // namespace placard::db
