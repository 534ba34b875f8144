#pragma once
#include <chrono>
#include <cstdint>
#include <optional>

namespace placard::catalog {

// Where the next catalog snapshot is read from when a replica is configured (db.read_*).
//
// The lag measure is the catalog version itself, used as a heartbeat: the refresher has just
// read version `wanted` from the primary; the replica is current when its own catalog_version
// has reached it. A replica behind it is waited for (the old snapshot stays) until it has been
// behind for max_lag (db.read_max_lag_seconds), measured on this worker's steady clock from the
// first time it was seen behind (and again once it has reached the version it was behind on
// then); then the snapshot loads from the primary. A replica that cannot be reached (or fails)
// is skipped for retry_after, the primary serving meanwhile; after that it is asked again, and
// used again as soon as it is current. A snapshot from the replica is thus never older than the
// version the primary reported, and never later than max_lag.
enum class ReadFrom { replica, primary, wait };

class ReplicaChoice {
 public:
  using Clock = std::chrono::steady_clock;
  ReplicaChoice(std::chrono::milliseconds max_lag, std::chrono::milliseconds retry_after);

  // Whether the replica is worth asking at `now` (false while a failure's back-off runs).
  bool ask_replica(Clock::time_point now) const;
  // The decision for a load of version `wanted`, given the replica's version (nullopt: it was
  // not asked, or could not answer; then the primary).
  ReadFrom choose(std::uint64_t wanted, std::optional<std::uint64_t> replica_version,
                  Clock::time_point now);
  // The replica failed (connection or SQL error): skip it until now + retry_after.
  void replica_failed(Clock::time_point now);
  // Since when the replica has been behind, the clock the bound runs on (restarted as choose()
  // restarts it), as of its last answered version; nullopt: it was current then.
  std::optional<Clock::time_point> behind_since() const;

 private:
  std::chrono::milliseconds max_lag_;
  std::chrono::milliseconds retry_after_;
  struct Behind {
    Clock::time_point since;
    std::uint64_t of;  // the version wanted then
  };
  std::optional<Behind> behind_;
  std::optional<Clock::time_point> skip_until_;
};

}  // namespace placard::catalog
