#include "lib/config/listen_address.h"

#include <arpa/inet.h>

#include "lib/util/parse_int.h"

namespace placard::config {

namespace {
constexpr std::string_view kForms = "expected unix:/absolute/path or an IPv4 address:port";
}  // namespace

ListenCheck check_listen(std::string_view listen) {
  if (listen.empty()) return {};
  if (listen.rfind("unix:", 0) == 0) {
    const std::string_view path = listen.substr(5);
    if (path.size() < 2 || path.front() != '/') {
      return {"listen: a unix socket needs an absolute path (unix:/run/placard.sock)", {}};
    }
    return {};
  }
  const auto colon = listen.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return {"listen: " + std::string(kForms) +
                " (an address is required: it never binds every "
                "interface)",
            {}};
  }
  const std::string_view host = listen.substr(0, colon);
  const std::string_view port_text = listen.substr(colon + 1);
  if (!util::parse_canonical_in<unsigned>(port_text, 1, 65535)) {
    return {"listen: the port must be a number from 1 to 65535", {}};
  }
  if (host == "localhost") return {};
  in_addr addr{};
  const std::string host_text(host);
  if (inet_pton(AF_INET, host_text.c_str(), &addr) != 1) {
    return {"listen: " + std::string(kForms) + "; '" + host_text + "' is not an IPv4 address", {}};
  }
  const std::uint32_t a = ntohl(addr.s_addr);
  if (a == 0) {
    return {"listen: 0.0.0.0 would accept FastCGI from every interface; name the address", {}};
  }
  if ((a >> 24U) != 127U) {
    return {{},
            "listen: " + std::string(listen) +
                " is reachable from other machines; FastCGI has no authentication, so allow only "
                "the web server to connect (firewall)"};
  }
  return {};
}

}  // namespace placard::config
