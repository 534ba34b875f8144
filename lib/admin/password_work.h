#pragma once
#include <atomic>
#include <chrono>
#include <string>
#include <string_view>

#include "lib/config/auth_limits.h"
#include "lib/crypto/hash_slots.h"
#include "lib/crypto/hash_threads.h"

namespace placard::admin {

// Every password hash and verification of the worker process goes through here (registration
// and sign-in): at most password_hash.concurrency at once (crypto::HashSlots); a request that
// gets no slot in time is refused with 503 service_unavailable and Retry-After, so the request
// threads the public API shares never queue behind hashes. The hashes themselves run on threads
// of their own at a lower CPU priority (crypto::HashThreads). Shared by every request thread.
class PasswordWork {
 public:
  // `today_cost`: how long one verification at today's parameters takes (0: measured on the
  // first verification that needs it); verifications at today's parameters keep it current.
  PasswordWork(const config::AuthLimits& limits, std::chrono::microseconds today_cost);

  // crypto::hash_password under a slot (503 when none).
  std::string hash(std::string_view password);
  // crypto::verify_password under a slot (503 when none). A hash made with weaker (older)
  // parameters verifies faster than today's: the answer is then held back until a verification
  // at today's cost would have ended, so the time of an answer does not tell an old account
  // from an unknown e-mail (verified against a dummy hash at today's parameters).
  bool verify(std::string_view password, std::string_view stored);

  int running() const { return slots_.running(); }  // hashes under way now
  // 503 at once when no slot could be had now: called before a registration or sign-in does any
  // database work, so that a flood of them costs next to nothing while the slots are taken.
  void refuse_when_saturated() const;
  std::chrono::microseconds today_cost() const {
    return std::chrono::microseconds(cost_us_.load(std::memory_order_relaxed));
  }

 private:
  crypto::HashSlots::Permit slot();

  crypto::HashSlots slots_;
  std::atomic<std::int64_t> cost_us_;
  crypto::HashThreads threads_;  // one per slot, at a lower CPU priority
};

}  // namespace placard::admin
