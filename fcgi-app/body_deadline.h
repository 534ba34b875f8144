#pragma once
#include <fcgiapp.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace placard::fcgi {

// Reads n bytes of a request's body (fewer when the input ends early), giving up at `deadline`
// (nullopt): whatever pace the web server forwards the client's bytes at, no read waits past it.
std::optional<std::string> read_body_by(FCGX_Request& request, std::size_t n,
                                        std::chrono::steady_clock::time_point deadline);

}  // namespace placard::fcgi
