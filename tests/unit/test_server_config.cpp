#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <string_view>

#include "lib/config/admin_config.h"
#include "lib/config/config_file.h"
#include "lib/config/listen_address.h"
#include "lib/config/server_config.h"
#include "lib/db/connection_params.h"
#include "lib/jobs/sync_job.h"
#include "tests/unit/text_file.h"

namespace {

using placard::config::ConfigError;
using placard::config::load_server_config;
using placard::config::parse_config_text;
using placard::config::render_server_config;
using placard::config::server_config_from;
using placard::config::ServerConfig;

using Map = std::map<std::string, std::string>;

using placard::test::TextFile;

std::string config_error(const Map& values) {
  try {
    server_config_from(values);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return {};
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(ServerConfig, DefaultsWhenEmpty) {
  const ServerConfig c = server_config_from({});
  EXPECT_EQ(c.listen, "");
  EXPECT_EQ(c.socket_mode, 0660u);
  EXPECT_EQ(c.threads, 8);
  EXPECT_EQ(c.log_file, "");
  EXPECT_EQ(c.db.socket, "");
  EXPECT_EQ(c.db.host, "127.0.0.1");
  EXPECT_EQ(c.db.port, 3306);
  EXPECT_EQ(c.db.name, "placard");
  EXPECT_EQ(c.db.user, "placard");
  EXPECT_EQ(c.db.password, "");
  EXPECT_EQ(c.catalog_poll_ms, 250);
}

TEST(ServerConfig, EveryKeyIsRead) {
  const ServerConfig c =
      server_config_from(parse_config_text("listen = 127.0.0.1:9001\n"
                                           "socket_mode = 0600\n"
                                           "threads = 16\n"
                                           "log_file = /var/log/placard.log\n"
                                           "db.socket = /run/mysqld/mysqld.sock\n"
                                           "db.host = db.internal\n"
                                           "db.port = 3307\n"
                                           "db.name = placard_test\n"
                                           "db.user = app\n"
                                           "db.password = pw1\n"
                                           "db.admin_user = root\n"
                                           "db.admin_password = pw2\n"
                                           "token.keys = k1:AAAA,k2:BBBB\n"
                                           "token.active_key = k2\n"
                                           "credentials.key = c1:CCCC\n"
                                           "catalog.poll_ms = 1000\n"
                                           "sql_dir = /usr/share/placard/sql\n"));
  EXPECT_EQ(c.listen, "127.0.0.1:9001");
  EXPECT_EQ(c.socket_mode, 0600u);
  EXPECT_EQ(c.threads, 16);
  EXPECT_EQ(c.log_file, "/var/log/placard.log");
  EXPECT_EQ(c.db.socket, "/run/mysqld/mysqld.sock");
  EXPECT_EQ(c.db.host, "db.internal");
  EXPECT_EQ(c.db.port, 3307);
  EXPECT_EQ(c.db.name, "placard_test");
  EXPECT_EQ(c.db.user, "app");
  EXPECT_EQ(c.db.password, "pw1");
  EXPECT_EQ(c.db.admin_user, "root");
  EXPECT_EQ(c.db.admin_password, "pw2");
  EXPECT_EQ(c.token_keys, "k1:AAAA,k2:BBBB");
  EXPECT_EQ(c.token_active_key, "k2");
  EXPECT_EQ(c.credentials_key, "c1:CCCC");
  EXPECT_EQ(c.catalog_poll_ms, 1000);
  EXPECT_EQ(c.sql_dir, "/usr/share/placard/sql");
}

TEST(ServerConfig, NetworkDefaults) {
  const ServerConfig c = server_config_from({});
  EXPECT_EQ(c.network.admitad_api_base, "https://api.admitad.com");
  EXPECT_EQ(c.network.awin_api_base, "https://api.awin.com");
  EXPECT_EQ(c.network.ca_file, "");
  EXPECT_EQ(c.network.timeout_seconds, 30);
}

TEST(ServerConfig, NetworkKeysRead) {
  const ServerConfig c =
      server_config_from(parse_config_text("network.admitad.api_base = https://admitad.test/\n"
                                           "network.awin.api_base = http://127.0.0.1:9555\n"
                                           "network.ca_file = /etc/ssl/extra.pem\n"
                                           "network.timeout_seconds = 5\n"));
  EXPECT_EQ(c.network.admitad_api_base, "https://admitad.test");  // trailing '/' removed
  EXPECT_EQ(c.network.awin_api_base, "http://127.0.0.1:9555");
  EXPECT_EQ(c.network.ca_file, "/etc/ssl/extra.pem");
  EXPECT_EQ(c.network.timeout_seconds, 5);
  for (const char* ok : {"http://localhost:1", "http://[::1]:80/base", "http://127.255.0.9",
                         "HTTPS://API.Example.com/v1"}) {
    EXPECT_NO_THROW(server_config_from({{"network.awin.api_base", ok}})) << ok;
  }
}

TEST(ServerConfig, NetworkBadValuesRejectedNamingTheKey) {
  const std::pair<const char*, const char*> bad[] = {
      {"network.admitad.api_base", "http://api.admitad.com"},
      {"network.admitad.api_base", "http://128.0.0.1"},
      {"network.admitad.api_base", "http://127.0.0.1.evil.example"},
      {"network.admitad.api_base", "http://localhost.evil.example"},
      {"network.admitad.api_base", "ftp://127.0.0.1"},
      {"network.admitad.api_base", "https://"},
      {"network.admitad.api_base", "https://user:pw@api.admitad.com"},
      {"network.awin.api_base", "https://api.awin.com/?x=1"},
      {"network.awin.api_base", "https://api .awin.com"},
      {"network.awin.api_base", ""},
      {"network.awin.api_base", "api.awin.com"},
      {"network.timeout_seconds", "0"},
      {"network.timeout_seconds", "601"},
      {"network.timeout_seconds", "x"},
  };
  for (const auto& [key, value] : bad) {
    const std::string e = config_error({{key, value}});
    EXPECT_TRUE(contains(e, key)) << key << "=" << value << ": " << e;
  }
}

TEST(ServerConfig, UnknownKeyRejected) {
  const std::string e = config_error({{"db.pasword", "x"}});
  EXPECT_TRUE(contains(e, "unknown key")) << e;
  EXPECT_TRUE(contains(e, "db.pasword")) << e;
}

TEST(ServerConfig, IntegerRanges) {
  EXPECT_EQ(server_config_from({{"threads", "1"}}).threads, 1);
  EXPECT_EQ(server_config_from({{"threads", "256"}}).threads, 256);
  EXPECT_EQ(server_config_from({{"db.port", "1"}}).db.port, 1);
  EXPECT_EQ(server_config_from({{"db.port", "65535"}}).db.port, 65535);
  EXPECT_EQ(server_config_from({{"catalog.poll_ms", "10"}}).catalog_poll_ms, 10);
  EXPECT_EQ(server_config_from({{"catalog.poll_ms", "60000"}}).catalog_poll_ms, 60000);
}

TEST(ServerConfig, BadIntegersRejectedNamingTheKey) {
  const std::pair<const char*, const char*> bad[] = {
      {"threads", "0"},         {"threads", "257"},
      {"threads", "-1"},        {"threads", "8x"},
      {"threads", "x8"},        {"threads", ""},
      {"threads", "+8"},        {"threads", "1e2"},
      {"threads", "0x10"},      {"threads", "8.0"},
      {"threads", "8 8"},       {"db.port", "0"},
      {"db.port", "65536"},     {"db.port", "99999999999"},
      {"catalog.poll_ms", "9"}, {"catalog.poll_ms", "60001"},
  };
  for (const auto& [key, value] : bad) {
    const std::string e = config_error({{key, value}});
    EXPECT_TRUE(contains(e, key)) << key << "=" << value << ": " << e;
  }
}

TEST(ServerConfig, OctalSocketMode) {
  EXPECT_EQ(server_config_from({{"socket_mode", "0660"}}).socket_mode, 0660u);
  EXPECT_EQ(server_config_from({{"socket_mode", "0600"}}).socket_mode, 0600u);
  EXPECT_EQ(server_config_from({{"socket_mode", "0777"}}).socket_mode, 0777u);
  EXPECT_EQ(server_config_from({{"socket_mode", "0"}}).socket_mode, 0u);
  EXPECT_EQ(server_config_from({{"socket_mode", "755"}}).socket_mode, 0755u);  // read as octal
  for (const char* bad :
       {"0800", "0668", "1000", "01000", "rw-rw----", "", "-0660", "0x1b6", "0660 ", "660.0"}) {
    const std::string e = config_error({{"socket_mode", bad}});
    EXPECT_TRUE(contains(e, "socket_mode")) << bad << ": " << e;
  }
}

TEST(ServerConfig, ListenForms) {
  EXPECT_EQ(server_config_from({{"listen", "unix:/run/p.sock"}}).listen, "unix:/run/p.sock");
  EXPECT_EQ(server_config_from({{"listen", "127.0.0.1:9000"}}).listen, "127.0.0.1:9000");
  EXPECT_EQ(server_config_from({{"listen", ""}}).listen, "");
  const std::string e = config_error({{"listen", "localhost"}});
  EXPECT_TRUE(contains(e, "listen")) << e;
}

// Issue 15, finding 10: nothing that binds every interface, nothing left to name resolution.
TEST(ServerConfig, ListenRefusesWildcardsAndBadForms) {
  for (const char* bad : {":9000", "*:9000", "0.0.0.0:9000", "example.com:9000", "127.0.0.1:",
                          "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:09000", "127.0.0.1:90x",
                          "unix:", "unix:relative.sock", "[::]:9000", "::1:9000", "1.2.3:9000"}) {
    const std::string e = config_error({{"listen", bad}});
    EXPECT_TRUE(contains(e, "listen")) << bad << ": " << e;
  }
  using placard::config::check_listen;
  EXPECT_TRUE(check_listen("127.0.0.1:9000").warning.empty());
  EXPECT_TRUE(check_listen("127.0.0.2:9000").error.empty());
  EXPECT_TRUE(check_listen("localhost:9000").error.empty());
  const auto remote = check_listen("192.0.2.10:9000");
  EXPECT_TRUE(remote.error.empty());
  EXPECT_TRUE(contains(remote.warning, "other machines")) << remote.warning;
}

TEST(ServerConfig, ErrorsNeverContainThePasswordValue) {
  const std::string secret = "Hunter2-Pa55word";
  const Map cases[] = {
      {{"db.password", secret}, {"threads", "zero"}},
      {{"db.password", secret}, {"unknown.key", "1"}},
      {{"db.password", secret}, {"listen", "nohostport"}},
      {{"db.password", secret}, {"db.port", secret}},
      {{"db.admin_password", secret}, {"socket_mode", secret}},
  };
  for (const auto& values : cases) {
    const std::string e = config_error(values);
    EXPECT_FALSE(e.empty());
    EXPECT_FALSE(contains(e, secret)) << e;
    EXPECT_FALSE(contains(e, "Hunter2")) << e;
  }
}

void expect_same(const ServerConfig& a, const ServerConfig& b) {
  EXPECT_EQ(a.listen, b.listen);
  EXPECT_EQ(a.socket_mode, b.socket_mode);
  EXPECT_EQ(a.socket_group, b.socket_group);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.intake_threads, b.intake_threads);
  EXPECT_EQ(a.body_timeout_ms, b.body_timeout_ms);
  EXPECT_EQ(a.log_file, b.log_file);
  EXPECT_EQ(a.db.socket, b.db.socket);
  EXPECT_EQ(a.db.host, b.db.host);
  EXPECT_EQ(a.db.port, b.db.port);
  EXPECT_EQ(a.db.name, b.db.name);
  EXPECT_EQ(a.db.user, b.db.user);
  EXPECT_EQ(a.db.password, b.db.password);
  EXPECT_EQ(a.db.admin_user, b.db.admin_user);
  EXPECT_EQ(a.db.admin_password, b.db.admin_password);
  EXPECT_EQ(a.token_keys, b.token_keys);
  EXPECT_EQ(a.token_active_key, b.token_active_key);
  EXPECT_EQ(a.credentials_key, b.credentials_key);
  EXPECT_EQ(a.catalog_poll_ms, b.catalog_poll_ms);
  EXPECT_EQ(a.sql_dir, b.sql_dir);
  EXPECT_EQ(a.network.admitad_api_base, b.network.admitad_api_base);
  EXPECT_EQ(a.network.awin_api_base, b.network.awin_api_base);
  EXPECT_EQ(a.network.ca_file, b.network.ca_file);
  EXPECT_EQ(a.network.timeout_seconds, b.network.timeout_seconds);
}

TEST(ServerConfig, RenderParseRoundTripOfDefaults) {
  const ServerConfig original;
  const std::string text = render_server_config(original);
  expect_same(server_config_from(parse_config_text(text)), original);
}

TEST(ServerConfig, RenderParseRoundTripOfEveryField) {
  ServerConfig c;
  c.listen = "unix:/run/placard/placard.sock";
  c.socket_mode = 0640;
  c.socket_group = "www-data";
  c.threads = 3;
  c.intake_threads = 40;
  c.body_timeout_ms = 2500;
  c.log_file = "/var/log/placard/placard.log";
  c.db.socket = "/run/mysqld/mysqld.sock";
  c.db.host = "10.0.0.5";
  c.db.port = 3310;
  c.db.name = "placard_prod";
  c.db.user = "placard_app";
  c.db.password = "p#ss=w:rd with spaces";
  c.db.admin_user = "placard_admin";
  c.db.admin_password = "#starts-with-hash";
  c.token_keys = "k1:c2VjcmV0LWtleS1vbmU,k2:c2VjcmV0LWtleS10d28";
  c.token_active_key = "k2";
  c.credentials_key = "c1:a2V5LWZvci1jcmVkZW50aWFscy0zMi1ieXRlcw";
  c.catalog_poll_ms = 500;
  c.sql_dir = "/usr/share/placard/sql";
  c.network.admitad_api_base = "http://127.0.0.1:8999/admitad";
  c.network.awin_api_base = "https://awin.example:8443";
  c.network.ca_file = "/etc/placard/extra-ca.pem";
  c.network.timeout_seconds = 7;
  const std::string text = render_server_config(c);
  EXPECT_NE(text.find("socket_mode = 0640\n"), std::string::npos) << text;
  EXPECT_NE(text.find("db.password = p#ss=w:rd with spaces\n"), std::string::npos) << text;
  // The migration credentials never reach the worker's file; they round-trip through their own.
  EXPECT_EQ(text.find("db.admin"), std::string::npos) << text;
  EXPECT_EQ(text.find("#starts-with-hash"), std::string::npos) << text;
  auto parsed = server_config_from(parse_config_text(text));
  EXPECT_FALSE(placard::config::has_migration_credentials(parsed));
  const TextFile admin(placard::config::render_admin_config(c.db));
  placard::config::load_admin_config(admin.path(), parsed);
  EXPECT_TRUE(placard::config::has_migration_credentials(parsed));
  expect_same(parsed, c);
}

TEST(ServerConfig, LoadFromFile) {
  char path[] = "/tmp/placard_test_config_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream out(path);
    out << "# test\nthreads = 5\ndb.password = pw\n";
  }
  const ServerConfig c = load_server_config(path);
  EXPECT_EQ(c.threads, 5);
  EXPECT_EQ(c.db.password, "pw");
  {
    std::ofstream out(path);
    out << "db.password = Hunter2-Pa55word\nthreads = 0\n";
  }
  try {
    load_server_config(path);
    ADD_FAILURE() << "expected ConfigError";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_TRUE(contains(msg, path)) << msg;
    EXPECT_TRUE(contains(msg, "threads")) << msg;
    EXPECT_FALSE(contains(msg, "Hunter2")) << msg;
  }
  std::remove(path);
  EXPECT_THROW(load_server_config(path), ConfigError);
}

}  // namespace

namespace {}  // namespace

// Issue 22, items 9 and 10: TLS to the database, and the caps of one sync run.
namespace {

TEST(ServerConfig, DatabaseTlsKeysReachTheConnectOptions) {
  const auto c = server_config_from({{"db.host", "db.example"},
                                     {"db.ssl_ca", "/etc/placard/db-ca.pem"},
                                     {"db.ssl_verify", "true"},
                                     {"db.ssl_cert", "/etc/placard/c.pem"},
                                     {"db.ssl_key", "/etc/placard/k.pem"}});
  EXPECT_EQ(c.db.ssl_ca, "/etc/placard/db-ca.pem");
  EXPECT_TRUE(c.db.ssl_verify);
  for (const auto& p : {placard::db::runtime_params(c), placard::db::admin_params(c)}) {
    sql::ConnectOptionsMap options;
    placard::db::add_tls_options(p, options);
    EXPECT_EQ(options.at("sslCA").get<sql::SQLString>()->asStdString(), "/etc/placard/db-ca.pem");
    EXPECT_EQ(options.at("sslCert").get<sql::SQLString>()->asStdString(), "/etc/placard/c.pem");
    EXPECT_EQ(options.at("sslKey").get<sql::SQLString>()->asStdString(), "/etc/placard/k.pem");
    EXPECT_TRUE(*options.at("sslEnforce").get<bool>());
    EXPECT_TRUE(*options.at("sslVerify").get<bool>());
  }
  EXPECT_TRUE(contains(config_error({{"db.ssl_verify", "yes"}}), "expected true or false"));
  EXPECT_TRUE(contains(config_error({{"db.ssl_ca", "/ca.pem"}}), "set db.ssl_verify = true too"));
  // Round trip through the rendered file.
  const auto back = server_config_from(parse_config_text(render_server_config(c)));
  EXPECT_EQ(back.db.ssl_ca, c.db.ssl_ca);
  EXPECT_EQ(back.db.ssl_verify, c.db.ssl_verify);
}

TEST(ServerConfig, NoTlsOptionsByDefault) {
  sql::ConnectOptionsMap options;
  placard::db::add_tls_options(placard::db::runtime_params(server_config_from({})), options);
  EXPECT_TRUE(options.empty());
}

TEST(ServerConfig, SyncCaps) {
  const auto d = server_config_from({});
  EXPECT_EQ(d.network.max_sync_offers, 200000);
  EXPECT_EQ(d.network.max_sync_bytes, 256 * 1024 * 1024);
  const auto c =
      server_config_from({{"network.max_sync_offers", "5"}, {"network.max_sync_bytes", "4096"}});
  const auto s = placard::network::sync_settings(c.network);
  EXPECT_EQ(s.max_offers, 5U);
  EXPECT_EQ(s.max_bytes, 4096U);
  EXPECT_TRUE(contains(config_error({{"network.max_sync_offers", "0"}}), "max_sync_offers"));
  EXPECT_TRUE(contains(config_error({{"network.max_sync_bytes", "100"}}), "max_sync_bytes"));
}

}  // namespace

// public_origin and base_path as config keys (their rules: test_public_address.cpp).
namespace {

std::map<std::string, std::string> minimal(std::string key, std::string value) {
  return {{"listen", "unix:/tmp/x.sock"}, {std::move(key), std::move(value)}};
}

TEST(ServerConfigKeys, PublicOriginAndBasePath) {
  using placard::config::server_config_from;
  const auto c = server_config_from(minimal("public_origin", "HTTPS://Ads.Example:443"));
  EXPECT_EQ(c.public_origin, "https://ads.example");
  EXPECT_EQ(server_config_from(minimal("public_origin", "")).public_origin, "");
  EXPECT_THROW(server_config_from(minimal("public_origin", "https://ads.example/")),
               placard::config::ConfigError);
  EXPECT_EQ(server_config_from(minimal("base_path", "/offers")).base_path, "/offers");
  EXPECT_THROW(server_config_from(minimal("base_path", "/offers/")), placard::config::ConfigError);
  // Both survive the round trip through the file `placardctl init` writes.
  auto both = server_config_from(minimal("public_origin", "https://ads.example"));
  both.base_path = "/offers";
  const auto again = server_config_from(
      placard::config::parse_config_text(placard::config::render_server_config(both)));
  EXPECT_EQ(again.public_origin, "https://ads.example");
  EXPECT_EQ(again.base_path, "/offers");
}

}  // namespace

// The keys of the background jobs: how often retention runs and who runs the jobs.
namespace placard {
namespace {

TEST(Retention, IntervalIsAConfigKey) {
  EXPECT_EQ(config::server_config_from({}).retention_interval_seconds, 600);
  EXPECT_EQ(
      config::server_config_from({{"retention.interval_seconds", "0"}}).retention_interval_seconds,
      0);
  EXPECT_THROW(config::server_config_from({{"retention.interval_seconds", "-1"}}),
               config::ConfigError);
  EXPECT_THROW(config::server_config_from({{"retention.interval_seconds", "1m"}}),
               config::ConfigError);
  config::ServerConfig c;
  c.retention_interval_seconds = 42;
  EXPECT_NE(config::render_server_config(c).find("retention.interval_seconds = 42\n"),
            std::string::npos);
}

TEST(Rollup, LateCheckIsAConfigKey) {
  EXPECT_EQ(config::server_config_from({}).rollup_late_check_seconds, 60);
  EXPECT_EQ(
      config::server_config_from({{"rollup.late_check_seconds", "2"}}).rollup_late_check_seconds,
      2);
  for (const char* bad : {"0", "-1", "86401", "1m"}) {
    EXPECT_THROW(config::server_config_from({{"rollup.late_check_seconds", bad}}),
                 config::ConfigError)
        << bad;
  }
  config::ServerConfig c;
  c.rollup_late_check_seconds = 90;
  EXPECT_NE(config::render_server_config(c).find("rollup.late_check_seconds = 90\n"),
            std::string::npos);
}

TEST(BackgroundJobsSetting, WorkersByDefaultCronOnRequestNothingElse) {
  EXPECT_EQ(config::server_config_from({}).background_jobs, "workers");
  EXPECT_EQ(config::server_config_from({{"background_jobs", "cron"}}).background_jobs, "cron");
  EXPECT_THROW(config::server_config_from({{"background_jobs", "sometimes"}}), config::ConfigError);
  const auto rendered =
      config::render_server_config(config::server_config_from({{"background_jobs", "cron"}}));
  EXPECT_NE(rendered.find("\nbackground_jobs = cron\n"), std::string::npos);
}

}  // namespace
}  // namespace placard
