#pragma once
// `placardctl config get|set`: reading and changing one key of the worker's config file text.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace placard::config {

// Every key of the worker's config file, in the order render_server_config writes them (the
// worker-file rows of lib/config/settings_table.h).
std::vector<std::string> config_keys();

// Whether the key's value is a secret (`placardctl config list` shows <secret> instead).
bool is_secret_key(const std::string& key);

// The key's effective value: the file's, else the default as the config file writes it.
// ConfigError for a key that is not a config key, or a file that does not parse.
std::string get_config_value(std::string_view text, const std::string& key);

// The text with `key = value`: its line replaced where it stands (comments, order and every
// other line kept), else appended. The whole result is validated (server_config_from) before it
// is returned: a bad value, an unknown key or a value with a line break throws ConfigError.
std::string set_config_value(std::string_view text, const std::string& key,
                             const std::string& value);

// Several keys at once (`placardctl config set K V K V ...`): each placed as set_config_value
// places it, the whole result validated once (so keys that depend on each other, such as
// db.ssl_ca and db.ssl_verify, can be set together). Later entries win over earlier ones.
std::string set_config_values(std::string_view text,
                              const std::vector<std::pair<std::string, std::string>>& entries);

// The text split in two: `kept` without the lines of `keys` (comments and every other line as
// they were), `removed` those lines' values by key. For keys that move to another file (the
// migration credentials of configs written before placard-admin.conf existed). Not validated.
struct SplitConfigText {
  std::string kept;
  std::map<std::string, std::string> removed;
};
SplitConfigText split_config_keys(std::string_view text, const std::set<std::string>& keys);

}  // namespace placard::config
