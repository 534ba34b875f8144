#include "lib/admin/password_work.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "lib/crypto/base64.h"
#include "lib/crypto/hash_slots.h"
#include "lib/crypto/hash_threads.h"
#include "lib/crypto/password_hash.h"
#include "lib/http/api_error.h"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::string weak_hash() {
  return "scrypt$10$8$1$" + placard::crypto::base64url_encode(std::string(16, 's')) + "$" +
         placard::crypto::base64url_encode(std::string(32, 'h'));
}

TEST(PasswordWork, AWeakerHashIsPaddedToTodaysCost) {
  placard::config::AuthLimits limits;
  placard::admin::PasswordWork work(limits, 400ms);
  const auto t0 = Clock::now();
  EXPECT_FALSE(placard::crypto::verify_password("password", weak_hash()));
  const auto bare = Clock::now() - t0;
  ASSERT_LT(bare, 200ms);  // N = 2^10: milliseconds
  const auto t1 = Clock::now();
  EXPECT_FALSE(work.verify("password", weak_hash()));
  EXPECT_GE(Clock::now() - t1, 390ms);
  EXPECT_EQ(work.today_cost(), 400ms);  // a weaker hash does not change today's figure
}

TEST(PasswordWork, NoSlotMeans503RightAway) {
  placard::config::AuthLimits limits;
  limits.hash_concurrency = 1;
  limits.hash_queue = 0;
  placard::admin::PasswordWork work(limits, 300ms);
  const std::string stored = placard::crypto::hash_password("a long password here");
  auto busy = std::async(std::launch::async, [&] { return work.verify("wrong", stored); });
  while (work.running() == 0) std::this_thread::sleep_for(1ms);
  try {
    (void)work.hash("another password");
    ADD_FAILURE() << "expected 503";
  } catch (const placard::http::ApiError& e) {
    EXPECT_EQ(e.status(), 503);
    EXPECT_EQ(e.code(), "service_unavailable");
    ASSERT_FALSE(e.headers().empty());
    EXPECT_EQ(e.headers()[0].name, "Retry-After");
  }
  EXPECT_FALSE(busy.get());
  EXPECT_GT(work.today_cost(), 0ms);
}

}  // namespace
