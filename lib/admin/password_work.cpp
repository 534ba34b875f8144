#include "lib/admin/password_work.h"

#include <thread>

#include "lib/crypto/dummy_password_hash.h"
#include "lib/crypto/password_hash.h"
#include "lib/http/api_error.h"

namespace placard::admin {

namespace {
using Clock = std::chrono::steady_clock;

http::ApiError busy() {
  http::ApiError e{503, "service_unavailable", "Too many sign-ins at once: try again shortly"};
  e.with_header("Retry-After", "1");
  return e;
}
}  // namespace

void PasswordWork::refuse_when_saturated() const {
  if (slots_.saturated()) throw busy();
}

PasswordWork::PasswordWork(const config::AuthLimits& limits, std::chrono::microseconds today_cost)
    : slots_(limits.hash_concurrency, limits.hash_queue,
             std::chrono::milliseconds(limits.hash_wait_ms)),
      cost_us_(today_cost.count()),
      threads_(limits.hash_concurrency) {}

crypto::HashSlots::Permit PasswordWork::slot() {
  auto permit = slots_.acquire();
  if (!permit) throw busy();
  return std::move(*permit);
}

std::string PasswordWork::hash(std::string_view password) {
  const auto permit = slot();
  return threads_.run([password] { return crypto::hash_password(password); });
}

bool PasswordWork::verify(std::string_view password, std::string_view stored) {
  const bool weaker = crypto::password_hash_outdated(stored);
  const auto started = Clock::now();
  bool good = false;
  {
    const auto permit = slot();
    good = threads_.run([password, stored] { return crypto::verify_password(password, stored); });
  }
  const auto took = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started);
  if (weaker) {
    auto target = today_cost();
    if (target.count() == 0) {  // not measured yet: one verification at today's parameters
      const auto m0 = Clock::now();
      {
        const auto permit = slot();
        (void)threads_.run([password] {
          return crypto::verify_password(password, crypto::dummy_password_hash());
        });
      }
      target = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - m0);
      cost_us_.store(target.count(), std::memory_order_relaxed);
    }
    if (took < target) std::this_thread::sleep_for(target - took);
  } else {
    // A moving average of today's cost (7/8 old, 1/8 new); races between threads lose a sample.
    const auto old = cost_us_.load(std::memory_order_relaxed);
    cost_us_.store(old == 0 ? took.count() : (old * 7 + took.count()) / 8,
                   std::memory_order_relaxed);
  }
  return good;
}

}  // namespace placard::admin
