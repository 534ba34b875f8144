#include "lib/config/config_file.h"

#include "lib/util/read_file.h"
#include "lib/util/trim.h"

namespace placard::config {

namespace {
bool valid_key(std::string_view k) {
  if (k.empty()) return false;
  for (char c : k) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}
}  // namespace

std::map<std::string, std::string> parse_config_text(std::string_view text) {
  std::map<std::string, std::string> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    const std::string_view line = util::trim(text.substr(0, nl), " \t\r");
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) {
      throw ConfigError("line " + std::to_string(line_no) + ": expected 'key = value'");
    }
    const std::string key(util::trim(line.substr(0, eq)));
    if (!valid_key(key)) {
      throw ConfigError("line " + std::to_string(line_no) + ": invalid key");
    }
    if (!out.emplace(key, std::string(util::trim(line.substr(eq + 1)))).second) {
      throw ConfigError("line " + std::to_string(line_no) + ": key '" + key + "' repeated");
    }
  }
  return out;
}

std::string read_config_file(const std::string& path) {
  auto text = util::read_whole_file(path);
  if (!text) throw ConfigError("cannot read config file " + path);
  return std::move(*text);
}

}  // namespace placard::config
