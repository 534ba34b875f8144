#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace placard::crypto {

// A counting semaphore for password hashes (128 MiB and ~0.3 s of CPU each): at most `slots`
// run at once in the process, at most `waiters` more wait for one, each no longer than `wait`.
// A request that finds the queue full, or waits in vain, is refused at once (the caller answers
// 503) instead of holding a request thread that public requests need.
class HashSlots {
 public:
  HashSlots(int slots, int waiters, std::chrono::milliseconds wait);
  HashSlots(const HashSlots&) = delete;
  HashSlots& operator=(const HashSlots&) = delete;

  // Holds one slot until destroyed.
  class Permit {
   public:
    explicit Permit(HashSlots& owner) : owner_(&owner) {}
    Permit(Permit&& other) noexcept : owner_(other.owner_) { other.owner_ = nullptr; }
    Permit& operator=(Permit&&) = delete;
    Permit(const Permit&) = delete;
    Permit& operator=(const Permit&) = delete;
    ~Permit();

   private:
    HashSlots* owner_;
  };

  // A slot, or nullopt when none came free in time (or the queue was full).
  std::optional<Permit> acquire();

  int running() const;
  int waiting() const;
  // Every slot taken and the queue full: acquire() would refuse now (a cheap check before any
  // other work of a request that will need a slot).
  bool saturated() const;

 private:
  void release();

  const int slots_;
  const int max_waiters_;
  const std::chrono::milliseconds wait_;
  mutable std::mutex mu_;
  std::condition_variable freed_;
  int running_ = 0;
  int waiting_ = 0;
};

}  // namespace placard::crypto
