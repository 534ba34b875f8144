#pragma once
// The table of every setting of the config files: its name, type, range or choices, where it
// lives, whether it is a secret, and how a value is checked. The parser (server_config_from),
// the writer (render_server_config), `placardctl config get|set|list` and the admin file's
// reader all go through it, so a new setting is one field of ServerConfig (its initializer is
// the default) plus one row here.
//
// The settings the admin API changes at run time (publicOrigin, rawEventRetentionDays, ...) live
// in the database, not here: catalog::stored_settings_table (lib/catalog/settings.h) declares
// those.
#include <string>
#include <string_view>
#include <vector>

#include "lib/config/server_config.h"

namespace placard::config {

enum class SettingType {
  text,       // any one-line value (a custom check may narrow it)
  integer,    // decimal, from min to max
  file_mode,  // octal, 0 to 0777
  boolean,    // true or false
  choice,     // one of `choices`
};

// Which file holds it: the worker's config (placard.conf), or the migration credentials'
// file only placardctl reads (placard-admin.conf).
enum class SettingHome { worker_file, admin_file };

struct Setting {
  std::string_view name;
  SettingType type = SettingType::text;
  SettingHome home = SettingHome::worker_file;
  bool secret = false;       // shown as <secret> by `placardctl config list`
  bool init_option = false;  // `placardctl init|setup --NAME` sets it (option_name: dashes)
  long long min = 0;         // integer
  long long max = 0;
  std::vector<std::string_view> choices;  // choice
  // Further checks of a value after its type's: returns the form to store (e.g. a normalised
  // origin) or throws std::invalid_argument saying what is wrong (without the key or value).
  std::string (*check)(std::string_view value) = nullptr;
  std::string_view comment;  // written above the key by render_server_config (may be empty)
  std::string (*get)(const ServerConfig&) = nullptr;
  void (*put)(ServerConfig&, std::string_view checked) = nullptr;
};

// Every setting, in the order the config files are written.
const std::vector<Setting>& settings();

// The setting named `name`, or nullptr.
const Setting* find_setting(std::string_view name);

// Checks `value` against the setting (type, range, custom check) and stores it in `config`;
// ConfigError naming the key (never the value) when it does not fit.
void apply_setting(ServerConfig& config, const Setting& setting, std::string_view value);

// The option of `placardctl init|setup` for the setting: "db.admin_user" -> "db-admin-user".
std::string option_name(const Setting& setting);

// The value as the config file writes it; default_value: that of a ServerConfig{}.
std::string setting_value(const ServerConfig& config, const Setting& setting);
std::string default_value(const Setting& setting);

}  // namespace placard::config
