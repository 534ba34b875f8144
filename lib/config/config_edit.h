#pragma once
// `placardctl config get|set`: reading and changing one key of the worker's config file text.
#include <string>
#include <string_view>
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

}  // namespace placard::config
