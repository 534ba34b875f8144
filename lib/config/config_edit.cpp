#include "lib/config/config_edit.h"

#include <algorithm>

#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/util/trim.h"

namespace placard::config {

namespace {

// The key of a "key = value" line, or "" for comments, blank lines and anything else.
std::string key_of(std::string_view line) {
  line = util::trim(line, " \t\r");
  if (line.empty() || line.front() == '#') return {};
  const auto eq = line.find('=');
  if (eq == std::string_view::npos) return {};
  return std::string(util::trim(line.substr(0, eq), " \t"));
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
  }
  return out;
}

}  // namespace

std::vector<std::string> config_keys() {
  std::vector<std::string> keys;
  // Named: lines_of() views into it, and a temporary in the range-for's initializer would be
  // gone before the loop runs (before C++23).
  const std::string rendered = render_server_config(ServerConfig{});
  for (const auto line : lines_of(rendered)) {
    if (auto key = key_of(line); !key.empty()) keys.push_back(std::move(key));
  }
  return keys;
}

std::string get_config_value(std::string_view text, const std::string& key) {
  const auto keys = config_keys();
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
    throw ConfigError("unknown key '" + key + "'");
  }
  const auto values = parse_config_text(text);
  if (const auto it = values.find(key); it != values.end()) return it->second;
  const std::string rendered = render_server_config(server_config_from(values));
  for (const auto line : lines_of(rendered)) {
    if (key_of(line) == key) {
      return std::string(util::trim(line.substr(line.find('=') + 1), " \t\r"));
    }
  }
  return {};
}

std::string set_config_value(std::string_view text, const std::string& key,
                             const std::string& value) {
  const auto keys = config_keys();
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
    throw ConfigError("unknown key '" + key + "'");
  }
  if (value.find_first_of("\r\n") != std::string::npos) {
    throw ConfigError(key + ": a value is one line");
  }
  if (util::trim(value, " \t") != value) {
    throw ConfigError(key + ": a value has no leading or trailing blanks");
  }
  const std::string entry = key + " = " + value + "\n";
  std::string out;
  bool replaced = false;
  for (const auto line : lines_of(text)) {
    if (!replaced && key_of(line) == key) {
      out += entry;
      replaced = true;
    } else {
      out.append(line).push_back('\n');
    }
  }
  if (!replaced) out += entry;
  (void)server_config_from(parse_config_text(out));  // the whole file stays valid
  return out;
}

}  // namespace placard::config
