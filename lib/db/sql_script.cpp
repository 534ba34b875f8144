#include "lib/db/sql_script.h"

namespace placard::db {

namespace {
bool blank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") == std::string::npos;
}
}  // namespace

std::vector<std::string> split_sql_script(std::string_view script) {
  std::vector<std::string> out;
  std::string current;
  const std::size_t n = script.size();
  for (std::size_t i = 0; i < n; ++i) {
    const char c = script[i];
    const char next = i + 1 < n ? script[i + 1] : '\0';
    if (c == '\'' || c == '"' || c == '`') {
      current.push_back(c);
      for (++i; i < n; ++i) {
        current.push_back(script[i]);
        if (script[i] == '\\' && c != '`' && i + 1 < n) {
          current.push_back(script[++i]);
        } else if (script[i] == c) {
          if (i + 1 < n && script[i + 1] == c) {
            current.push_back(script[++i]);  // doubled quote inside the literal
          } else {
            break;
          }
        }
      }
    } else if ((c == '-' && next == '-' &&
                (i + 2 >= n || script[i + 2] == ' ' || script[i + 2] == '\t' ||
                 script[i + 2] == '\n')) ||
               c == '#') {
      while (i < n && script[i] != '\n') ++i;
      current.push_back('\n');
    } else if (c == '/' && next == '*') {
      i += 2;
      while (i + 1 < n && !(script[i] == '*' && script[i + 1] == '/')) ++i;
      ++i;
      current.push_back(' ');
    } else if (c == ';') {
      if (!blank(current)) out.push_back(current);
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!blank(current)) out.push_back(current);
  for (auto& s : out) {
    const auto first = s.find_first_not_of(" \t\r\n");
    const auto last = s.find_last_not_of(" \t\r\n");
    s = s.substr(first, last - first + 1);
  }
  return out;
}

}  // namespace placard::db
