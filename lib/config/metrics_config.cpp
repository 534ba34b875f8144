#include "lib/config/metrics_config.h"

#include "lib/config/config_file.h"

namespace placard::config {

void check_metrics_config(const MetricsConfig& metrics) {
  if (metrics.enabled && metrics.allow.find_first_not_of(" ,\t") == std::string::npos &&
      metrics.token.empty()) {
    throw ConfigError(
        "metrics.enabled: set metrics.allow (client networks) or metrics.token, or both");
  }
}

}  // namespace placard::config
