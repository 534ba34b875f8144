#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "lib/catalog/snapshot_holder.h"

namespace placard::catalog {

// Keeps the holder's snapshot current: polls the catalog version counter and rebuilds when it
// changes (or when no snapshot exists yet). Failures keep the old snapshot and are reported;
// the next poll tries again. Runs in a thread owned by main; stop() wakes it at once.
class Refresher {
 public:
  using ReadVersion = std::function<std::uint64_t()>;
  // nullptr: not yet (the source waits for a replica to catch up); the current snapshot stays.
  using Load = std::function<std::shared_ptr<const Snapshot>()>;
  using Report = std::function<void(const std::string&)>;
  using Released = std::function<void()>;

  // released (optional) runs once the snapshot a new one replaced is gone, e.g. to hand its
  // memory back to the operating system: right after the swap when nothing else held it, else at
  // the first poll after the last request that held it let go.
  Refresher(SnapshotHolder& holder, ReadVersion read_version, Load load, Report report,
            std::chrono::milliseconds interval, Released released = {});

  // One poll: returns true when a new snapshot was installed.
  bool poll_once();
  // Runs released_ when the replaced snapshot is gone and it has not run for it yet.
  void release_if_gone();
  void run();  // polls until stop()
  void stop();

  // Health (GET /healthz): true when a snapshot is in place and a poll confirmed it against the
  // database (the version read, or a rebuild) no longer than `max_age` before `now`. The polls
  // are the only database round trips this costs: one per interval, whatever the request rate.
  bool fresh(std::chrono::steady_clock::time_point now, std::chrono::milliseconds max_age) const;

 private:
  SnapshotHolder& holder_;
  ReadVersion read_version_;
  Load load_;
  Report report_;
  std::chrono::milliseconds interval_;
  Released released_;
  std::weak_ptr<const Snapshot> replaced_;  // the snapshot the last install replaced
  bool release_pending_ = false;            // released_ not yet run for it
  bool failing_ = false;
  // steady_clock ticks of the last successful poll; 0: none yet.
  std::atomic<std::chrono::steady_clock::rep> confirmed_at_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
};

}  // namespace placard::catalog
