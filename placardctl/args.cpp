#include "placardctl/args.h"

#include <algorithm>

namespace placard::ctl {

bool Args::flag(const std::string& f) const {
  return std::find(flags.begin(), flags.end(), f) != flags.end();
}

std::string Args::get(const std::string& k, const std::string& fallback) const {
  const auto it = values.find(k);
  return it == values.end() ? fallback : it->second;
}

std::string Args::need(const std::string& k) const {
  const auto it = values.find(k);
  if (it == values.end() || it->second.empty()) throw UsageError("--" + k + " is required");
  return it->second;
}

Args parse(const std::vector<std::string>& argv, const std::vector<std::string>& valued,
           const std::vector<std::string>& flags) {
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s == "--help" || s == "-h") {
      a.help = true;
      continue;
    }
    if (s.rfind("--", 0) != 0) throw UsageError("unexpected argument " + s);
    const std::string name = s.substr(2);
    if (std::find(valued.begin(), valued.end(), name) != valued.end()) {
      if (i + 1 >= argv.size()) throw UsageError(s + " needs a value");
      a.values[name] = argv[++i];
    } else if (std::find(flags.begin(), flags.end(), name) != flags.end()) {
      a.flags.push_back(name);
    } else {
      throw UsageError("unknown option " + s);
    }
  }
  return a;
}

}  // namespace placard::ctl
