#pragma once
// Which CA bundle the network client verifies with: the one the config names, else the system's
// (Debian and RHEL-family hosts keep it in different places, and a portable build's libcurl only
// knows Debian's), else the portable bundle's own ca-certificates.crt.
#include <functional>
#include <string>
#include <vector>

namespace placard::network {

// The candidates in order: `configured` (network.ca_file) when set, the system locations, then
// `bundled`. The first that `exists` is the answer; none: empty (libcurl's default).
std::string choose_ca_file(const std::string& configured, const std::string& bundled,
                           const std::function<bool(const std::string&)>& exists);

// choose_ca_file on this machine; `bundled` is ca-certificates.crt in the directory above the
// running program's (the bundle's root: bin/ or lib/, where its loader lives, are one below).
std::string ca_file_for(const std::string& configured);

}  // namespace placard::network
