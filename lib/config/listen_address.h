#pragma once
#include <string>
#include <string_view>

namespace placard::config {

// What the worker may listen on: nothing (the web server passes the socket on fd 0, or CGI),
// `unix:/absolute/path`, or an explicit IPv4 address (or `localhost`) and a port 1..65535.
// `:port`, `*:port`, `0.0.0.0:port` and host names are refused: they would bind every interface
// or depend on name resolution.
struct ListenCheck {
  std::string error;    // non-empty: refuse to start
  std::string warning;  // non-empty: start, but say it (an address other machines can reach)
};

ListenCheck check_listen(std::string_view listen);

}  // namespace placard::config
