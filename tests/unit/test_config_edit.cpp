// placardctl config get|set (lib/config/config_edit.h) and setup's SQL quoting.
#include <gtest/gtest.h>

#include <algorithm>

#include "lib/config/config_edit.h"
#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/db/provision.h"

namespace {

using placard::config::config_keys;
using placard::config::ConfigError;
using placard::config::get_config_value;
using placard::config::set_config_value;
using placard::config::set_config_values;
using placard::config::split_config_keys;

const char* const kText =
    "# comment kept\n"
    "listen = unix:/run/placard/placard.sock\n"
    "threads = 4\n"
    "\n"
    "# another\n"
    "db.user = placard\n";

TEST(ConfigEdit, EveryRenderedKeyIsKnownAndSettableToItsDefault) {
  const auto keys = config_keys();
  ASSERT_GT(keys.size(), 20U);
  for (const auto* key : {"listen", "socket_group", "db.password", "trusted_proxies",
                          "retention.interval_seconds", "network.page_size"}) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
  }
  for (const auto& key : keys) {
    const auto value = get_config_value("", key);
    EXPECT_NO_THROW((void)set_config_value(kText, key, value)) << key << " = " << value;
  }
}

TEST(ConfigEdit, GetReadsTheFileElseTheDefault) {
  EXPECT_EQ(get_config_value(kText, "threads"), "4");
  EXPECT_EQ(get_config_value(kText, "body_timeout_ms"), "5000");
  EXPECT_EQ(get_config_value(kText, "socket_mode"), "0660");
  EXPECT_THROW((void)get_config_value(kText, "no.such_key"), ConfigError);
}

TEST(ConfigEdit, SetReplacesTheLineInPlaceAndKeepsTheRest) {
  const auto out = set_config_value(kText, "threads", "16");
  EXPECT_EQ(out,
            "# comment kept\n"
            "listen = unix:/run/placard/placard.sock\n"
            "threads = 16\n"
            "\n"
            "# another\n"
            "db.user = placard\n");
  const auto appended = set_config_value(kText, "trusted_proxies", "10.0.0.0/8");
  EXPECT_EQ(appended, std::string(kText) + "trusted_proxies = 10.0.0.0/8\n");
  EXPECT_EQ(get_config_value(appended, "trusted_proxies"), "10.0.0.0/8");
}

TEST(ConfigEdit, SetRefusesBadValuesUnknownKeysAndLineBreaks) {
  EXPECT_THROW((void)set_config_value(kText, "threads", "0"), ConfigError);
  EXPECT_THROW((void)set_config_value(kText, "threads", "many"), ConfigError);
  EXPECT_THROW((void)set_config_value(kText, "trusted_proxies", "not-an-address"), ConfigError);
  EXPECT_THROW((void)set_config_value(kText, "network.awin.api_base", "http://evil.example"),
               ConfigError);
  EXPECT_THROW((void)set_config_value(kText, "listen", "0.0.0.0:80"), ConfigError);
  EXPECT_THROW((void)set_config_value(kText, "nope", "1"), ConfigError);
  EXPECT_THROW((void)set_config_value(kText, "log_file", "a\nthreads = 9"), ConfigError);
  EXPECT_THROW((void)set_config_value(kText, "log_file", " padded"), ConfigError);
}

TEST(ConfigEdit, SetSeveralKeysInOneStepValidatedTogether) {
  const auto out =
      set_config_values(kText, {{"listen", ""}, {"threads", "1"}, {"log_file", "/x.log"}});
  EXPECT_EQ(out,
            "# comment kept\n"
            "listen = \n"
            "threads = 1\n"
            "\n"
            "# another\n"
            "db.user = placard\n"
            "log_file = /x.log\n");
  EXPECT_EQ(get_config_value(out, "listen"), "");
  // Keys that depend on each other: ssl_ca alone is refused, with ssl_verify it is taken.
  EXPECT_THROW((void)set_config_value(kText, "db.ssl_ca", "/ca.pem"), ConfigError);
  EXPECT_NO_THROW(
      (void)set_config_values(kText, {{"db.ssl_ca", "/ca.pem"}, {"db.ssl_verify", "true"}}));
  // One bad entry: nothing is returned (the caller writes nothing).
  EXPECT_THROW((void)set_config_values(kText, {{"threads", "2"}, {"threads", "0"}}), ConfigError);
  EXPECT_THROW((void)set_config_values(kText, {{"threads", "2"}, {"nope", "1"}}), ConfigError);
  EXPECT_EQ(
      get_config_value(set_config_values(kText, {{"threads", "2"}, {"threads", "3"}}), "threads"),
      "3");
}

TEST(ConfigEdit, SplitTakesOutTheNamedKeysAndKeepsEveryOtherLine) {
  const auto split = split_config_keys(
      "# head\nlisten = unix:/s\ndb.admin_user = root \n\ndb.admin_password=pw\nthreads = 2\n",
      {"db.admin_user", "db.admin_password"});
  EXPECT_EQ(split.kept, "# head\nlisten = unix:/s\n\nthreads = 2\n");
  ASSERT_EQ(split.removed.size(), 2U);
  EXPECT_EQ(split.removed.at("db.admin_user"), "root");
  EXPECT_EQ(split.removed.at("db.admin_password"), "pw");
  const auto none = split_config_keys(kText, {"db.admin_user"});
  EXPECT_EQ(none.kept, kText);
  EXPECT_TRUE(none.removed.empty());
}

TEST(Provision, SqlQuoteEscapesQuotesAndBackslashes) {
  EXPECT_EQ(placard::db::sql_quote("abc"), "'abc'");
  EXPECT_EQ(placard::db::sql_quote("a'b\\c"), "'a\\'b\\\\c'");
}

}  // namespace
