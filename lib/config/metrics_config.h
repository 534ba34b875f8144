#pragma once
#include <string>

namespace placard::config {

// GET {base}/metrics (lib/api/metrics_endpoint.h): off unless enabled; when on, answered only to
// clients whose address (after trusted_proxies) is in `allow` and, when `token` is set, that
// send `Authorization: Bearer <token>`. Everyone else gets 404, as if there were no such path.
// Config keys: metrics.enabled (true/false), metrics.allow (addresses and CIDR ranges,
// comma-separated; empty: any address, then a token is required), metrics.token (16 to 256
// printable characters without spaces; empty: none).
struct MetricsConfig {
  bool enabled = false;
  std::string allow = "127.0.0.1, ::1";
  std::string token;
};

// Sets `key` when it is one of the keys above (true), after checking its value (ConfigError);
// false for any other key.
bool set_metrics_key(MetricsConfig& metrics, const std::string& key, const std::string& value);

// Checks the keys together (enabled with neither an address list nor a token: ConfigError).
void check_metrics_config(const MetricsConfig& metrics);

// The keys with their values, as config file lines.
std::string render_metrics_config(const MetricsConfig& metrics);

}  // namespace placard::config
