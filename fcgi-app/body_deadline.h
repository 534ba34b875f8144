#pragma once
#include <fcgiapp.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace placard::fcgi {

// Reads n bytes of a request's body (fewer when the input ends early), giving up at `deadline`
// (nullopt): whatever pace the web server forwards the client's bytes at, no read waits past it.
// on_wait (when given) is told around every read that may wait for the web server: true
// before, false after (the caller may let others work meanwhile). The connection's reads keep
// the limit set for the last of these: call it only on a connection that ends with the request.
std::optional<std::string> read_body_by(FCGX_Request& request, std::size_t n,
                                        std::chrono::steady_clock::time_point deadline,
                                        const std::function<void(bool)>& on_wait = {});

}  // namespace placard::fcgi
