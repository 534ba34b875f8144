#pragma once
#include <atomic>
#include <functional>
#include <memory>

#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/util/logger.h"

namespace placard::fcgi {

// What a request thread runs; one instance per thread, made by the factory in that thread.
class RequestHandler {
 public:
  virtual ~RequestHandler() = default;
  virtual http::Response handle(http::Request& request) = 0;
};
using HandlerFactory = std::function<std::unique_ptr<RequestHandler>()>;

// Accepts FastCGI requests on listen_fd with `threads` threads until the socket is shut down
// (see request_shutdown), letting in-flight requests finish. One log line per request.
void serve_fastcgi(int listen_fd, int threads, const HandlerFactory& factory, util::Logger& log);

// Makes blocked accepts return: libfcgi's own flag plus shutdown() of the listening socket.
void request_shutdown(int listen_fd);

// Plain CGI: one request from the environment and standard input, answered on standard output.
int serve_cgi(RequestHandler& handler, util::Logger& log);

}  // namespace placard::fcgi
