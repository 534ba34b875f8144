#pragma once
// Command-line parsing of placardctl's subcommands: "--name value" options and "--flag"s.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace placard::ctl {

// Bad usage: main prints it and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parsed options of one subcommand.
struct Args {
  std::map<std::string, std::string> values;
  std::vector<std::string> flags;
  bool help = false;

  bool flag(const std::string& f) const;
  bool has(const std::string& k) const { return values.count(k) != 0; }
  std::string get(const std::string& k, const std::string& fallback = {}) const;
  // The value of --k; UsageError when it is missing or empty.
  std::string need(const std::string& k) const;
};

// `valued` options take the next argument as their value, `flags` take none; --help / -h set
// help. Anything else is a UsageError naming it.
Args parse(const std::vector<std::string>& argv, const std::vector<std::string>& valued,
           const std::vector<std::string>& flags);

}  // namespace placard::ctl
