// Issue 22 (items 1, 3, 4, 5): per-client keys of IPv6 clients by /64, the password hash slots,
// the padding of weaker hashes, the sign-in and registration throttles' decisions, the config.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <thread>

#include "lib/admin/password_work.h"
#include "lib/admin/session_handlers.h"
#include "lib/admin/throttle_keys.h"
#include "lib/api/client_hasher.h"
#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/hash_slots.h"
#include "lib/crypto/hash_threads.h"
#include "lib/crypto/password_hash.h"
#include "lib/http/api_error.h"
#include "lib/http/cgi_gateway.h"
#include "lib/http/client_address.h"
#include "lib/http/response.h"

namespace {

using namespace std::chrono_literals;
using placard::db::FailureWindow;
using Clock = std::chrono::steady_clock;

TEST(ClientKeyText, Ipv6IsReducedToItsSlash64) {
  using placard::http::client_key_text;
  EXPECT_EQ(client_key_text("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_key_text("2001:db8:1:2::1"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_key_text("[2001:db8:1:2::1]:443"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_key_text("2001:db8:1:3::1"), "2001:db8:1:3::/64");
  EXPECT_EQ(client_key_text("::1"), "::/64");
  // IPv4, also IPv4-mapped, stays a whole address.
  EXPECT_EQ(client_key_text("192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(client_key_text("::ffff:192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(client_key_text("not an address"), "not an address");
}

TEST(ClientHasher, OneIpv6Slash64IsOneClient) {
  const placard::http::TrustedProxies none;
  placard::api::ClientHasher h(none, "day secret");
  const std::int64_t now = 1'800'000'000;
  EXPECT_EQ(h.hash_address("2001:db8:1:2::1", now), h.hash_address("2001:db8:1:2:ffff::5", now));
  EXPECT_NE(h.hash_address("2001:db8:1:2::1", now), h.hash_address("2001:db8:1:3::1", now));
  EXPECT_NE(h.hash_address("192.0.2.1", now), h.hash_address("192.0.2.2", now));
}

TEST(ThrottleKeys, SignInKeysOfOneSlash64AreEqual) {
  placard::admin::AdminConfig config{"client key", "dummy", std::nullopt, {}, {}};
  placard::http::Request a;
  a.remote_addr = "2001:db8:1:2::1";
  placard::http::Request b;
  b.remote_addr = "2001:db8:1:2:9999::7";
  placard::http::Request c;
  c.remote_addr = "2001:db8:1:3::1";
  EXPECT_EQ(placard::admin::client_key(config, a), placard::admin::client_key(config, b));
  EXPECT_NE(placard::admin::client_key(config, a), placard::admin::client_key(config, c));
}

TEST(ThrottleKeys, EmailsAreKeyedNormalised) {
  using placard::admin::email_key;
  using placard::admin::normalise_email;
  EXPECT_EQ(normalise_email("  Admin@Example.ORG "), "admin@example.org");
  placard::admin::AdminConfig config{"client key", "dummy", std::nullopt, {}, {}};
  EXPECT_EQ(email_key(config, "Admin@Example.org"), email_key(config, "admin@example.org "));
  EXPECT_NE(email_key(config, "admin@example.org"), email_key(config, "admin2@example.org"));
  placard::admin::AdminConfig other{"another key", "dummy", std::nullopt, {}, {}};
  EXPECT_NE(email_key(config, "admin@example.org"), email_key(other, "admin@example.org"));
}

FailureWindow w(int count) {
  return {count, 1000};
}

TEST(SignInRefusal, TheSixthFailureOfAnEmailIsRefusedToAClientThatFailed) {
  using placard::admin::sign_in_refusal;
  // Counts include the attempt's own reservation.
  EXPECT_FALSE(sign_in_refusal(w(5), w(5)));
  EXPECT_TRUE(sign_in_refusal(w(6), w(6)));
  EXPECT_TRUE(sign_in_refusal(w(6), w(2)));
}

TEST(SignInRefusal, AClientWithoutFailuresStillGetsItsTry) {
  using placard::admin::sign_in_refusal;
  EXPECT_FALSE(sign_in_refusal(w(6), w(1)));
  EXPECT_FALSE(sign_in_refusal(w(50), w(1)));
}

TEST(SignInRefusal, AClientPastItsOwnLimitIsRefusedWhateverTheEmail) {
  using placard::admin::kMaxFailuresPerClient;
  using placard::admin::sign_in_refusal;
  EXPECT_FALSE(sign_in_refusal(w(1), w(kMaxFailuresPerClient)));
  const auto r = sign_in_refusal(w(1), FailureWindow{kMaxFailuresPerClient + 1, 42});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->oldest_at, 42);
}

TEST(RegistrationRefusal, PerClientAndInTotal) {
  using placard::admin::registration_refusal;
  placard::config::AuthLimits limits;
  limits.registrations_per_client_per_hour = 3;
  limits.registrations_per_hour = 10;
  EXPECT_FALSE(registration_refusal(limits, w(3), w(10)));
  EXPECT_TRUE(registration_refusal(limits, w(4), w(4)));
  EXPECT_TRUE(registration_refusal(limits, w(1), w(11)));
}

TEST(AuthLimitsConfig, DefaultsAndKeys) {
  const auto c = placard::config::server_config_from({});
  EXPECT_EQ(c.auth.registrations_per_client_per_hour, 5);
  EXPECT_EQ(c.auth.registrations_per_hour, 30);
  EXPECT_EQ(c.auth.max_pending_accounts, 50);
  EXPECT_EQ(c.auth.pending_days, 14);
  EXPECT_EQ(c.auth.hash_concurrency, 1);
  const auto d = placard::config::server_config_from({{"registration.per_client_per_hour", "100"},
                                                      {"registration.per_hour", "1000"},
                                                      {"registration.max_pending", "7"},
                                                      {"registration.pending_days", "3"},
                                                      {"password_hash.concurrency", "2"},
                                                      {"password_hash.queue", "0"},
                                                      {"password_hash.wait_ms", "250"}});
  EXPECT_EQ(d.auth.registrations_per_client_per_hour, 100);
  EXPECT_EQ(d.auth.registrations_per_hour, 1000);
  EXPECT_EQ(d.auth.max_pending_accounts, 7);
  EXPECT_EQ(d.auth.pending_days, 3);
  EXPECT_EQ(d.auth.hash_concurrency, 2);
  EXPECT_EQ(d.auth.hash_queue, 0);
  EXPECT_EQ(d.auth.hash_wait_ms, 250);
  EXPECT_THROW(placard::config::server_config_from({{"password_hash.concurrency", "0"}}),
               placard::config::ConfigError);
  EXPECT_THROW(placard::config::server_config_from({{"registration.per_hour", "x"}}),
               placard::config::ConfigError);
  // What placardctl init writes reads back the same.
  const auto text = placard::config::render_server_config(d);
  const auto e = placard::config::server_config_from(placard::config::parse_config_text(text));
  EXPECT_EQ(e.auth.max_pending_accounts, 7);
  EXPECT_EQ(e.auth.hash_wait_ms, 250);
}

TEST(HashSlots, AtMostSlotsAtOnceAndAFullQueueIsRefusedAtOnce) {
  placard::crypto::HashSlots slots(1, 0, 1000ms);
  auto first = slots.acquire();
  ASSERT_TRUE(first);
  EXPECT_EQ(slots.running(), 1);
  EXPECT_TRUE(slots.saturated());
  const auto t0 = Clock::now();
  EXPECT_FALSE(slots.acquire());  // no queue: refused without waiting
  EXPECT_LT(Clock::now() - t0, 200ms);
  first.reset();
  EXPECT_EQ(slots.running(), 0);
  EXPECT_FALSE(slots.saturated());
  EXPECT_TRUE(slots.acquire());
}

TEST(HashSlots, AWaiterGetsAFreedSlotAndGivesUpAfterTheBound) {
  placard::crypto::HashSlots slots(1, 1, 2000ms);
  auto held = slots.acquire();
  ASSERT_TRUE(held);
  EXPECT_FALSE(slots.saturated());  // one may still wait (checked before anyone does)
  auto waiter = std::async(std::launch::async, [&] { return slots.acquire().has_value(); });
  while (slots.waiting() == 0) std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(slots.saturated());
  EXPECT_FALSE(slots.acquire());  // the one waiting place is taken
  held.reset();
  EXPECT_TRUE(waiter.get());

  placard::crypto::HashSlots short_wait(1, 1, 100ms);
  auto busy = short_wait.acquire();
  const auto t0 = Clock::now();
  EXPECT_FALSE(short_wait.acquire());
  const auto waited = Clock::now() - t0;
  EXPECT_GE(waited, 90ms);
  EXPECT_LT(waited, 1500ms);
}

TEST(HashThreads, RunsTheWorkElsewhereAtALowerPriorityAndPassesErrorsOn) {
  placard::crypto::HashThreads threads(1, 10);
  const auto caller = gettid();
  const int own_nice = getpriority(PRIO_PROCESS, static_cast<id_t>(caller));
  const auto [tid, nice] = threads.run([] {
    const auto t = gettid();
    return std::pair<pid_t, int>(t, getpriority(PRIO_PROCESS, static_cast<id_t>(t)));
  });
  EXPECT_NE(tid, caller);
  EXPECT_EQ(nice, std::min(19, own_nice + 10));
  EXPECT_THROW(threads.run([]() -> int { throw std::runtime_error("scrypt failed"); }),
               std::runtime_error);
  EXPECT_EQ(threads.run([] { return 42; }), 42);  // still serving after an error
}

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

// Item 12: a header can never carry CR or LF into the response.
TEST(ResponseHeaders, CrLfAndNulAreImpossible) {
  placard::http::Response r = placard::http::Response::json(200, "{}");
  EXPECT_THROW(r.set_header("X-Test", "a\r\nSet-Cookie: x=1"), std::invalid_argument);
  EXPECT_THROW(r.set_header("X-Test", "a\nb"), std::invalid_argument);
  EXPECT_THROW(r.set_header("X-Test", std::string("a\0b", 3)), std::invalid_argument);
  EXPECT_THROW(r.set_header("X-Te\rst", "a"), std::invalid_argument);
  EXPECT_FALSE(r.has("X-Test"));
  // Added around set_header (the vector is public): left out of the response head.
  r.headers.push_back({"X-Evil", "a\r\nSet-Cookie: x=1"});
  r.headers.push_back({"X-Fine", "b"});
  const auto head = placard::http::render_response_head(r);
  EXPECT_EQ(head.find("Set-Cookie"), std::string::npos) << head;
  EXPECT_EQ(head.find("X-Evil"), std::string::npos) << head;
  EXPECT_NE(head.find("X-Fine: b\r\n"), std::string::npos) << head;
}

TEST(ResponseHeaders, ErrorsSayNosniffAndDropBrokenHeaders) {
  placard::http::ApiError e{500, "internal_error", "Internal error"};
  e.with_header("Retry-After", "1\r\nX-Injected: 1");
  const auto r = placard::http::render_error(e);
  EXPECT_EQ(r.header("X-Content-Type-Options"), "nosniff");
  EXPECT_FALSE(r.has("Retry-After"));
}

}  // namespace
