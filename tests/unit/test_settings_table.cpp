// The table of settings (lib/config/settings_table.h): what the parser, the writer and
// `placardctl config get|set` all read.
#include "lib/config/settings_table.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "lib/config/admin_config.h"
#include "lib/config/config_edit.h"
#include "lib/config/config_file.h"
#include "lib/config/server_config.h"

namespace placard::config {
namespace {

// A valid value other than the default, for every setting.
std::string sample(const Setting& s) {
  static const std::map<std::string, std::string, std::less<>> custom{
      {"listen", "127.0.0.1:9000"},
      {"db.host", "db1.internal,db2.internal:3307"},
      {"network.admitad.api_base", "https://admitad.test"},
      {"network.awin.api_base", "http://127.0.0.1:8123"},
      {"trusted_proxies", "10.0.0.0/8, ::1"},
      {"public_origin", "https://ads.example"},
      {"base_path", "/offers"},
      {"metrics.allow", "10.0.0.0/8"},
      {"metrics.token", "0123456789abcdef-token"},
  };
  if (const auto it = custom.find(s.name); it != custom.end()) return it->second;
  switch (s.type) {
    case SettingType::integer:
      return std::to_string(default_value(s) == std::to_string(s.max) ? s.min : s.max);
    case SettingType::file_mode:
      return "0600";
    case SettingType::boolean:
      return default_value(s) == "true" ? "false" : "true";
    case SettingType::choice:
      return std::string(s.choices.back() == default_value(s) ? s.choices.front()
                                                              : s.choices.back());
    case SettingType::text:
      break;
  }
  return "/srv/placard/" + std::string(s.name);
}

TEST(SettingsTable, NamesAreUniqueAndEveryRowIsComplete) {
  std::set<std::string_view> names;
  for (const auto& s : settings()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_NE(s.get, nullptr) << s.name;
    EXPECT_NE(s.put, nullptr) << s.name;
    if (s.type == SettingType::integer) {
      EXPECT_LT(s.min, s.max) << s.name;
    }
    if (s.type == SettingType::choice) {
      EXPECT_GE(s.choices.size(), 2U) << s.name;
    }
    EXPECT_EQ(find_setting(s.name), &s);
  }
  EXPECT_GT(names.size(), 40U);
  EXPECT_EQ(find_setting("no.such_key"), nullptr);
}

TEST(SettingsTable, UnknownKeysAreRefusedEverywhere) {
  EXPECT_THROW(server_config_from({{"no.such_key", "1"}}), ConfigError);
  EXPECT_THROW(server_config_from({{"threads", "4"}, {"thread", "4"}}), ConfigError);
  EXPECT_THROW((void)set_config_value("", "no.such_key", "1"), ConfigError);
  EXPECT_THROW((void)get_config_value("", "no.such_key"), ConfigError);
  // The admin file's keys are not the worker file's to set, and the other way round.
  EXPECT_THROW((void)set_config_value("", "db.admin_password", "x"), ConfigError);
  const std::string path = ::testing::TempDir() + "settings_table_admin.conf";
  std::ofstream(path) << "threads = 4\n";
  ServerConfig c;
  EXPECT_THROW(load_admin_config(path, c), ConfigError);
  std::remove(path.c_str());
}

TEST(SettingsTable, BadValuesAreRefusedPerTypeNamingTheKeyNotTheValue) {
  int checked = 0;
  for (const auto& s : settings()) {
    std::vector<std::string> bad;
    switch (s.type) {
      case SettingType::integer:
        bad = {"",
               "x",
               "1x",
               " 1",
               std::to_string(s.min - 1),
               std::to_string(s.max + 1),
               "99999999999999999999"};
        break;
      case SettingType::file_mode:
        bad = {"", "0800", "1000", "rw", "-1"};
        break;
      case SettingType::boolean:
        bad = {"", "yes", "1", "TRUE"};
        break;
      case SettingType::choice:
        bad = {"", "sometimes", std::string(s.choices.front()) + " "};
        break;
      case SettingType::text:
        if (s.check != nullptr) bad = {"no such value, sekrit"};
        break;
    }
    for (const auto& value : bad) {
      ServerConfig c;
      try {
        apply_setting(c, s, value);
        ADD_FAILURE() << s.name << " took '" << value << "'";
      } catch (const ConfigError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(std::string(s.name) + ": ", 0), 0U) << what;
        // Numbers are never echoed (a custom check may quote the part it refuses; choices are
        // listed).
        if (value.size() > 3 && s.type != SettingType::text && s.type != SettingType::choice) {
          EXPECT_EQ(what.find(value), std::string::npos) << what;
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 140);
}

TEST(SettingsTable, DefaultsAreAppliedWhenTheFileIsSilent) {
  const ServerConfig parsed = server_config_from({});
  for (const auto& s : settings()) {
    EXPECT_EQ(setting_value(parsed, s), default_value(s)) << s.name;
    if (s.home == SettingHome::worker_file) {
      EXPECT_EQ(get_config_value("# nothing set\n", std::string(s.name)), default_value(s))
          << s.name;
    }
  }
  EXPECT_EQ(default_value(*find_setting("threads")), "8");
  EXPECT_EQ(default_value(*find_setting("socket_mode")), "0660");
  EXPECT_EQ(default_value(*find_setting("db.port")), "3306");
  EXPECT_EQ(default_value(*find_setting("db.ssl_verify")), "false");
  EXPECT_EQ(default_value(*find_setting("background_jobs")), "workers");
  EXPECT_EQ(default_value(*find_setting("registration.pending_days")), "14");
}

// Every key of the table: `config set` writes it, the parser reads it back, `config get` and
// the writer give the same value, and nothing else changed.
TEST(SettingsTable, EveryWorkerKeyRoundTripsThroughConfigSetAndTheParser) {
  const std::string base = "db.ssl_verify = true\n";  // db.ssl_ca needs it
  for (const auto& s : settings()) {
    if (s.home != SettingHome::worker_file) continue;
    const std::string key(s.name);
    const std::string value = sample(s);
    ASSERT_NE(value, default_value(s)) << key;
    const std::string text = key == "db.ssl_verify" ? set_config_value("", key, value)
                                                    : set_config_value(base, key, value);
    const ServerConfig parsed = server_config_from(parse_config_text(text));
    EXPECT_EQ(setting_value(parsed, s), value) << key;
    EXPECT_EQ(get_config_value(text, key), value) << key;
    const ServerConfig again = server_config_from(parse_config_text(render_server_config(parsed)));
    for (const auto& other : settings()) {
      EXPECT_EQ(setting_value(again, other), setting_value(parsed, other))
          << key << " " << other.name;
      if (&other != &s && other.name != "db.ssl_verify") {
        EXPECT_EQ(setting_value(parsed, other), default_value(other)) << key << " " << other.name;
      }
    }
  }
}

TEST(SettingsTable, AdminFileKeysRoundTripThroughTheirOwnFile) {
  ServerConfig c;
  for (const auto& s : settings()) {
    if (s.home == SettingHome::admin_file) apply_setting(c, s, sample(s));
  }
  const std::string path = ::testing::TempDir() + "settings_table_admin_ok.conf";
  std::ofstream(path) << render_admin_config(c.db);
  ServerConfig back;
  load_admin_config(path, back);
  std::remove(path.c_str());
  int admin_keys = 0;
  for (const auto& s : settings()) {
    if (s.home != SettingHome::admin_file) continue;
    EXPECT_EQ(setting_value(back, s), sample(s)) << s.name;
    EXPECT_EQ(render_server_config(c).find(std::string(s.name)), std::string::npos) << s.name;
    ++admin_keys;
  }
  EXPECT_EQ(admin_keys, 2);
}

TEST(SettingsTable, SecretsAndInitOptionsComeFromTheTable) {
  for (const auto* key : {"db.password", "token.keys", "credentials.key"}) {
    EXPECT_TRUE(is_secret_key(key)) << key;
  }
  EXPECT_FALSE(is_secret_key("db.user"));
  EXPECT_EQ(option_name(*find_setting("db.admin_user")), "db-admin-user");
  EXPECT_EQ(option_name(*find_setting("socket_mode")), "socket-mode");
  EXPECT_TRUE(find_setting("public_origin")->init_option);
  EXPECT_FALSE(find_setting("token.keys")->init_option);
}

}  // namespace
}  // namespace placard::config
