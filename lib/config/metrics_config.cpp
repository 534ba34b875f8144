#include "lib/config/metrics_config.h"

#include <algorithm>
#include <stdexcept>

#include "lib/config/config_file.h"
#include "lib/http/client_address.h"

namespace placard::config {

namespace {

bool printable_without_space(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c > ' ' && c < 127; });
}

}  // namespace

bool set_metrics_key(MetricsConfig& metrics, const std::string& key, const std::string& value) {
  if (key == "metrics.enabled") {
    if (value != "true" && value != "false") throw ConfigError(key + ": expected true or false");
    metrics.enabled = value == "true";
  } else if (key == "metrics.allow") {
    try {
      (void)http::TrustedProxies::parse(value);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(key + ": " + e.what());
    }
    metrics.allow = value;
  } else if (key == "metrics.token") {
    if (!value.empty() &&
        (value.size() < 16 || value.size() > 256 || !printable_without_space(value))) {
      throw ConfigError(key + ": expected 16 to 256 printable characters without spaces");
    }
    metrics.token = value;
  } else {
    return false;
  }
  return true;
}

void check_metrics_config(const MetricsConfig& metrics) {
  if (metrics.enabled && metrics.allow.find_first_not_of(" ,\t") == std::string::npos &&
      metrics.token.empty()) {
    throw ConfigError(
        "metrics.enabled: set metrics.allow (client networks) or metrics.token, or both");
  }
}

std::string render_metrics_config(const MetricsConfig& metrics) {
  return "\n# GET {base}/metrics (Prometheus text format): off unless enabled; only to clients in\n"
         "# metrics.allow (addresses or CIDR ranges; empty: any) with the bearer token when set.\n"
         "metrics.enabled = " +
         std::string(metrics.enabled ? "true" : "false") + "\nmetrics.allow = " + metrics.allow +
         "\nmetrics.token = " + metrics.token + "\n";
}

}  // namespace placard::config
