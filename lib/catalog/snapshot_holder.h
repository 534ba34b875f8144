#pragma once
#include <memory>
#include <mutex>
#include <utility>

#include "lib/catalog/snapshot.h"

namespace placard::catalog {

// The current snapshot, swapped by the loader and read by every request thread.
//
// A mutex, not std::atomic<std::shared_ptr>: libstdc++ 12's load() (GCC 12.2, Debian 12) reads
// the pointer under its internal spin lock and then releases that lock with
// memory_order_relaxed, so the read is not ordered before the next store's write. ThreadSanitizer
// reports it (`make test SANITIZE=thread`: catalog refresher's set() against a request thread's
// get()), and on a weakly ordered CPU a reader could pair one snapshot's pointer with another's
// reference count. Taking a shared_ptr under an uncontended mutex costs tens of nanoseconds, a
// few times per request.
class SnapshotHolder {
 public:
  std::shared_ptr<const Snapshot> get() const {
    const std::lock_guard lock(mutex_);
    return current_;
  }
  void set(std::shared_ptr<const Snapshot> next) {
    {
      const std::lock_guard lock(mutex_);
      current_.swap(next);
    }
    // `next` now holds the previous snapshot: when it was the last reference, the catalog is
    // freed here, outside the lock, so readers never wait for it.
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Snapshot> current_;
};

}  // namespace placard::catalog
