#include "lib/admin/throttle_keys.h"

#include <gtest/gtest.h>

#include <optional>

#include "lib/admin/context.h"
#include "lib/admin/session_handlers.h"
#include "lib/config/auth_limits.h"
#include "lib/http/request.h"

namespace {

using placard::db::FailureWindow;

FailureWindow w(int count) {
  return {count, 1000};
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

}  // namespace
