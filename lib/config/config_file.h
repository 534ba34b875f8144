#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace placard::config {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A flat "key = value" file: '#' starts a comment line, blank lines are ignored, keys are
// [a-z0-9_.]+ and appear once. Values are trimmed; no quoting. Throws ConfigError with the
// line number (never the value: values may be secrets).
std::map<std::string, std::string> parse_config_text(std::string_view text);

// The text of the config file at `path`; ConfigError "cannot read config file PATH" otherwise.
std::string read_config_file(const std::string& path);

}  // namespace placard::config
