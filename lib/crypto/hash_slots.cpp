#include "lib/crypto/hash_slots.h"

#include <algorithm>

namespace placard::crypto {

HashSlots::HashSlots(int slots, int waiters, std::chrono::milliseconds wait)
    : slots_(std::max(1, slots)), max_waiters_(std::max(0, waiters)), wait_(wait) {}

HashSlots::Permit::~Permit() {
  if (owner_ != nullptr) owner_->release();
}

std::optional<HashSlots::Permit> HashSlots::acquire() {
  std::unique_lock lock(mu_);
  if (running_ < slots_) {
    ++running_;
    return std::optional<Permit>(std::in_place, *this);
  }
  if (waiting_ >= max_waiters_ || wait_.count() <= 0) return std::nullopt;
  ++waiting_;
  const bool got = freed_.wait_for(lock, wait_, [this] { return running_ < slots_; });
  --waiting_;
  if (!got) return std::nullopt;
  ++running_;
  return std::optional<Permit>(std::in_place, *this);
}

void HashSlots::release() {
  {
    const std::lock_guard lock(mu_);
    --running_;
  }
  freed_.notify_one();
}

int HashSlots::running() const {
  const std::lock_guard lock(mu_);
  return running_;
}

bool HashSlots::saturated() const {
  const std::lock_guard lock(mu_);
  return running_ >= slots_ && (waiting_ >= max_waiters_ || wait_.count() <= 0);
}

int HashSlots::waiting() const {
  const std::lock_guard lock(mu_);
  return waiting_;
}

}  // namespace placard::crypto
