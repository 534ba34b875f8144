// db.host with several nodes (lib/config/db_hosts.h), through the settings table that the worker
// and `placardctl config set` share.
#include "lib/config/db_hosts.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "lib/config/config_edit.h"
#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/config/settings_table.h"
#include "lib/db/connection_params.h"

namespace placard::config {
namespace {

std::vector<std::string> urls(const std::string& value, int port = 3306) {
  std::vector<std::string> out;
  for (const auto& n : parse_db_hosts(value, port)) out.push_back(tcp_url(n));
  return out;
}

TEST(DbHosts, OneNodeAsBefore) {
  EXPECT_EQ(urls("127.0.0.1"), std::vector<std::string>{"tcp://127.0.0.1:3306"});
  EXPECT_EQ(urls("db.internal", 3307), std::vector<std::string>{"tcp://db.internal:3307"});
  EXPECT_EQ(urls("localhost"), std::vector<std::string>{"tcp://localhost:3306"});
  EXPECT_TRUE(parse_db_hosts("", 3306).empty());  // db.socket only
}

TEST(DbHosts, SeveralNodesInOrderWithTheirPorts) {
  EXPECT_EQ(urls("g1, g2:3307 ,10.0.0.3", 3310),
            (std::vector<std::string>{"tcp://g1:3310", "tcp://g2:3307", "tcp://10.0.0.3:3310"}));
  EXPECT_EQ(urls("[::1]:3307,fd00::5,[fd00::6]"),
            (std::vector<std::string>{"tcp://[::1]:3307", "tcp://[fd00::5]:3306",
                                      "tcp://[fd00::6]:3306"}));
  EXPECT_EQ(normalize_db_hosts(" g1 ,\tg2:3307 "), "g1,g2:3307");
  EXPECT_EQ(normalize_db_hosts("127.0.0.1"), "127.0.0.1");
}

TEST(DbHosts, BadEntriesAreRefusedSayingWhich) {
  for (const char* bad : {"g1,",
                          ",g1",
                          "g1,,g2",
                          "g1:",
                          "g1:0",
                          "g1:65536",
                          "g1:33o6",
                          "g1:+3306",
                          "g1:03306",
                          "db host",
                          "db_host;x",
                          "-g1",
                          "g1.",
                          "[::1",
                          "[::1]x",
                          "[g1]:3306",
                          "::zz",
                          "g1,g1",
                          "a,b,c,d,e,f,g,h,i",
                          "g1/x",
                          "g1:3306:1"}) {
    EXPECT_THROW((void)parse_db_hosts(bad, 3306), std::invalid_argument) << bad;
  }
  try {
    (void)parse_db_hosts("g1,g2:99999", 3306);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("g2:99999"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_db_hosts("a,b,c,d,e,f,g,h", 3306).size(), kMaxDbHosts);
}

TEST(DbHosts, TheSettingsTableChecksAndStoresTheList) {
  const auto c = server_config_from({{"db.host", "g1 , g2:3307"}, {"db.port", "3310"}});
  EXPECT_EQ(c.db.host, "g1,g2:3307");
  const auto p = db::runtime_params(c);
  EXPECT_EQ(p.host, "g1,g2:3307");
  EXPECT_EQ(p.port, 3310);
  try {
    (void)server_config_from({{"db.host", "g1,,g2"}});
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("db.host: ", 0), 0U) << e.what();
  }
}

TEST(DbHosts, ConfigSetRefusesABadListAndWritesNothing) {
  const std::string text = "db.host = g1\n";
  EXPECT_EQ(set_config_value(text, "db.host", "g1,g2:3307"), "db.host = g1,g2:3307\n");
  EXPECT_THROW((void)set_config_value(text, "db.host", "g1,g2:x"), ConfigError);
  EXPECT_THROW((void)set_config_values(text, {{"db.port", "3307"}, {"db.host", "g1;g2"}}),
               ConfigError);
}

}  // namespace
}  // namespace placard::config
