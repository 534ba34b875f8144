#include "lib/config/config_edit.h"

#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/config/settings_table.h"
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

// The text with `key = value`: its first line replaced where it stands, else appended.
std::string placed(std::string_view text, const std::string& key, const std::string& value) {
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
  return out;
}

const Setting& worker_setting(const std::string& key) {
  const Setting* s = find_setting(key);
  if (s == nullptr || s->home != SettingHome::worker_file) {
    throw ConfigError("unknown key '" + key + "'");
  }
  return *s;
}

}  // namespace

std::vector<std::string> config_keys() {
  std::vector<std::string> keys;
  for (const auto& s : settings()) {
    if (s.home == SettingHome::worker_file) keys.emplace_back(s.name);
  }
  return keys;
}

bool is_secret_key(const std::string& key) {
  const Setting* s = find_setting(key);
  return s != nullptr && s->secret;
}

std::string get_config_value(std::string_view text, const std::string& key) {
  const Setting& setting = worker_setting(key);
  const auto values = parse_config_text(text);
  if (const auto it = values.find(key); it != values.end()) return it->second;
  return setting_value(server_config_from(values), setting);
}

std::string set_config_value(std::string_view text, const std::string& key,
                             const std::string& value) {
  return set_config_values(text, {{key, value}});
}

std::string set_config_values(std::string_view text,
                              const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out(text);
  for (const auto& [key, value] : entries) {
    (void)worker_setting(key);
    if (value.find_first_of("\r\n") != std::string::npos) {
      throw ConfigError(key + ": a value is one line");
    }
    if (util::trim(value, " \t") != value) {
      throw ConfigError(key + ": a value has no leading or trailing blanks");
    }
    out = placed(out, key, value);
  }
  (void)server_config_from(parse_config_text(out));  // the whole file stays valid
  return out;
}

SplitConfigText split_config_keys(std::string_view text, const std::set<std::string>& keys) {
  SplitConfigText split;
  for (const auto line : lines_of(text)) {
    const auto key = key_of(line);
    if (!key.empty() && keys.count(key) != 0) {
      const auto value = line.substr(line.find('=') + 1);
      split.removed[key] = std::string(util::trim(value, " \t\r"));
    } else {
      split.kept.append(line).push_back('\n');
    }
  }
  return split;
}

}  // namespace placard::config
