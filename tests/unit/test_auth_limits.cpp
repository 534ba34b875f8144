// Issue 22 (item 5): the registration and password-hash limits of the config (AuthLimits).
#include "lib/config/auth_limits.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/config/config_file.h"
#include "lib/config/server_config.h"

namespace {

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

}  // namespace
