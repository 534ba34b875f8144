#include <gtest/gtest.h>

#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/db/connection_params.h"

using placard::config::ConfigError;
using placard::config::parse_config_text;
using placard::config::render_server_config;
using placard::config::server_config_from;

TEST(ReadReplicaConfig, NoReplicaByDefault) {
  const auto c = server_config_from({});
  EXPECT_FALSE(placard::db::read_params(c).has_value());
  EXPECT_EQ(c.db.read_max_lag_seconds, 1);
}

TEST(ReadReplicaConfig, ReplicaParamsFallBackToTheRuntimeUser) {
  const auto c = server_config_from({{"db.host", "10.0.0.1"},
                                     {"db.user", "placard"},
                                     {"db.password", "pw"},
                                     {"db.read_host", "10.0.0.2"},
                                     {"db.read_port", "3307"},
                                     {"db.read_max_lag_seconds", "5"}});
  const auto p = placard::db::read_params(c);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->host, "10.0.0.2");
  EXPECT_EQ(p->port, 3307);
  EXPECT_EQ(p->user, "placard");
  EXPECT_EQ(p->password, "pw");
  EXPECT_TRUE(p->socket.empty());
  EXPECT_EQ(c.db.read_max_lag_seconds, 5);
  EXPECT_EQ(p->io_timeout_seconds, 5);  // a replica that stops answering is given up quickly
  // The primary's params are untouched.
  EXPECT_EQ(placard::db::runtime_params(c).host, "10.0.0.1");
  EXPECT_EQ(placard::db::runtime_params(c).io_timeout_seconds, 30);
  const auto back = server_config_from(parse_config_text(render_server_config(c)));
  EXPECT_EQ(back.db.read_host, "10.0.0.2");
  EXPECT_EQ(back.db.read_port, 3307);
  EXPECT_EQ(back.db.read_max_lag_seconds, 5);
}

TEST(ReadReplicaConfig, OwnUserSocketAndBadValues) {
  const auto c = server_config_from(
      {{"db.read_socket", "/run/replica.sock"}, {"db.read_user", "r"}, {"db.read_password", "s"}});
  const auto p = placard::db::read_params(c);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->socket, "/run/replica.sock");
  EXPECT_EQ(p->user, "r");
  EXPECT_EQ(p->password, "s");
  EXPECT_THROW(server_config_from({{"db.read_port", "0"}}), ConfigError);
  EXPECT_THROW(server_config_from({{"db.read_max_lag_seconds", "-1"}}), ConfigError);
  EXPECT_THROW(server_config_from({{"db.read_max_lag_seconds", "x"}}), ConfigError);
}
