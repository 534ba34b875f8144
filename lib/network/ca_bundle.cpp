#include "lib/network/ca_bundle.h"

#include <filesystem>
#include <system_error>

namespace placard::network {

std::string choose_ca_file(const std::string& configured, const std::string& bundled,
                           const std::function<bool(const std::string&)>& exists) {
  if (!configured.empty()) return configured;  // the operator's choice, even if it is missing
  for (const char* system :
       {"/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/ssl/ca-bundle.pem", "/etc/ssl/cert.pem"}) {
    if (exists(system)) return system;
  }
  if (!bundled.empty() && exists(bundled)) return bundled;
  return {};
}

std::string ca_file_for(const std::string& configured) {
  std::error_code ec;
  const auto exe = std::filesystem::canonical("/proc/self/exe", ec);
  const std::string bundled =
      ec ? std::string() : (exe.parent_path().parent_path() / "ca-certificates.crt").string();
  return choose_ca_file(configured, bundled, [](const std::string& path) {
    std::error_code e;
    return std::filesystem::is_regular_file(path, e);
  });
}

}  // namespace placard::network
