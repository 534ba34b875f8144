#pragma once
#include <cstdint>
#include <string>

namespace placard::db {

// When a background job (rollup, retention, sync) last ran; see lib/store/background_runs.h.
struct BackgroundRun {
  std::string job;
  std::int64_t ran_at = 0;  // Unix seconds
  bool ok = false;
  std::string runner;  // worker | placardctl
  bool operator==(const BackgroundRun&) const = default;
};

}  // namespace placard::db
