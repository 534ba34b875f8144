#pragma once
#include <atomic>
#include <memory>

#include "lib/catalog/snapshot.h"

namespace placard::catalog {

// The current snapshot, swapped atomically by the loader and read by every request thread.
class SnapshotHolder {
 public:
  std::shared_ptr<const Snapshot> get() const { return current_.load(std::memory_order_acquire); }
  void set(std::shared_ptr<const Snapshot> next) {
    current_.store(std::move(next), std::memory_order_release);
  }

 private:
  std::atomic<std::shared_ptr<const Snapshot>> current_;
};

}  // namespace placard::catalog
