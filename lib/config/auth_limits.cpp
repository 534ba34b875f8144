#include "lib/config/auth_limits.h"

#include <charconv>

#include "lib/config/config_file.h"

namespace placard::config {

namespace {

struct Key {
  const char* name;
  int AuthLimits::*field;
  int min;
  int max;
};

constexpr Key kKeys[] = {
    {"registration.per_client_per_hour", &AuthLimits::registrations_per_client_per_hour, 1,
     1000000},
    {"registration.per_hour", &AuthLimits::registrations_per_hour, 1, 1000000},
    {"registration.max_pending", &AuthLimits::max_pending_accounts, 1, 1000000},
    {"registration.pending_days", &AuthLimits::pending_days, 1, 3650},
    {"password_hash.concurrency", &AuthLimits::hash_concurrency, 1, 64},
    {"password_hash.queue", &AuthLimits::hash_queue, 0, 256},
    {"password_hash.wait_ms", &AuthLimits::hash_wait_ms, 0, 10000},
};

}  // namespace

bool set_auth_limit(AuthLimits& limits, const std::string& key, const std::string& value) {
  for (const auto& k : kKeys) {
    if (key != k.name) continue;
    int out = 0;
    const auto* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, out);
    if (ec != std::errc{} || ptr != end || out < k.min || out > k.max) {
      throw ConfigError(key + ": expected an integer from " + std::to_string(k.min) + " to " +
                        std::to_string(k.max));
    }
    limits.*k.field = out;
    return true;
  }
  return false;
}

std::string render_auth_limits(const AuthLimits& limits) {
  std::string out =
      "\n# Registration limits and password hashing (docs/hardening.md): registrations per client\n"
      "# and hour, in total per hour, pending accounts at most, days before an unapproved account\n"
      "# is removed; password hashes at once per worker process, requests that may wait for one,\n"
      "# and how long (ms).\n";
  for (const auto& k : kKeys) {
    out += std::string(k.name) + " = " + std::to_string(limits.*k.field) + "\n";
  }
  return out;
}

}  // namespace placard::config
