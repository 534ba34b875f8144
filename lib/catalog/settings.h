#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lib/util/version.h"

namespace placard::catalog {

// Administrator settings (table `settings`), typed. Bad stored values fall back to defaults
// and are reported in `problems` so the loader can log them.
struct Settings {
  bool available = true;
  int refresh_interval_seconds = 900;
  util::Version min_extension_version{1, 0, 0};
  std::vector<std::string> allowed_client_origins;
  std::int64_t token_ttl_seconds = 86400;
  std::string public_origin;
};

Settings parse_settings(const std::map<std::string, std::string>& values,
                        std::vector<std::string>& problems);

}  // namespace placard::catalog
