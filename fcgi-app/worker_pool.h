#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/metrics/registry.h"
#include "lib/util/logger.h"

namespace placard::fcgi {

// What answers a request; made `handlers` times by the factory when the pool starts, each lent
// to one thread at a time.
class RequestHandler {
 public:
  virtual ~RequestHandler() = default;
  virtual http::Response handle(http::Request& request) = 0;
  // Before each request: what the handler calls before it waits for something other than the
  // client, e.g. the event writer's commit (the thread's turn at accept() goes to another thread
  // meanwhile, so that more events reach the writer's next batch).
  virtual void before_long_waits(const std::function<void()>& give_up_turn) { (void)give_up_turn; }
};
using HandlerFactory = std::function<std::unique_ptr<RequestHandler>()>;

struct PoolSettings {
  int threads = 8;          // turns: threads at once in accept() or answering without waiting
  int handlers = 32;        // made by the factory: requests answered at once, waits included
  int intake_threads = 64;  // accept a connection, read its body, answer on a lent handler
  std::chrono::milliseconds body_timeout{5000};  // from accept to the body's last byte
  // When set: requests counted and timed there (metrics::RequestMetrics), and the pool's
  // queue depths as gauges while it serves.
  metrics::Registry* metrics = nullptr;
};

// Serves FastCGI requests on listen_fd until the socket is shut down (see request_shutdown),
// letting in-flight requests finish. Intake threads accept each request and read its body
// (within body_timeout, else the handler's load_body() answers 408); only then do they take a
// handler from the pool and answer on it themselves, so bodies arriving slowly never hold a
// handler, and a request costs no hand-off between threads. One log line per request.
void serve_fastcgi(int listen_fd, const PoolSettings& settings, const HandlerFactory& factory,
                   util::Logger& log);

// Makes blocked accepts return: libfcgi's own flag plus shutdown() of the listening socket.
void request_shutdown(int listen_fd);

// Plain CGI: one request from the environment and standard input, answered on standard output.
int serve_cgi(RequestHandler& handler, util::Logger& log);

}  // namespace placard::fcgi
