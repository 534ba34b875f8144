#pragma once
#include <string>

namespace placard::config {

// GET {base}/metrics (lib/api/metrics_endpoint.h): off unless enabled; when on, answered only to
// clients whose address (after trusted_proxies) is in `allow` and, when `token` is set, that
// send `Authorization: Bearer <token>`. Everyone else gets 404, as if there were no such path.
// Config keys (rows of lib/config/settings_table.cpp): metrics.enabled (true/false), metrics.allow
// (addresses and CIDR ranges, comma-separated; empty: any address, then a token is required),
// metrics.token (16 to 256 printable characters without spaces; empty: none).
struct MetricsConfig {
  bool enabled = false;
  std::string allow = "127.0.0.1, ::1";
  std::string token;
};

// Checks the keys together (enabled with neither an address list nor a token: ConfigError).
void check_metrics_config(const MetricsConfig& metrics);

}  // namespace placard::config
