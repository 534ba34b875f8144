#include "fcgi-app/worker_pool.h"

#include <fcgiapp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "lib/http/cgi_gateway.h"
#include "lib/util/fast_rng.h"

extern char** environ;  // NOLINT: the CGI environment, read once per process

namespace placard::fcgi {

namespace {

// RAII for a FastCGI request slot.
class FcgiRequest {
 public:
  explicit FcgiRequest(int listen_fd) {
    FCGX_InitRequest(&request_, listen_fd, FCGI_FAIL_ACCEPT_ON_INTR);
  }
  ~FcgiRequest() { FCGX_Free(&request_, 1); }
  FcgiRequest(const FcgiRequest&) = delete;
  FcgiRequest& operator=(const FcgiRequest&) = delete;
  FCGX_Request& get() { return request_; }

 private:
  FCGX_Request request_{};
};

std::string read_fcgi_body(FCGX_Stream* in, std::size_t n) {
  std::string body(n, '\0');
  std::size_t got = 0;
  while (got < n) {
    const int r = FCGX_GetStr(body.data() + got, static_cast<int>(n - got), in);
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  body.resize(got);
  return body;
}

// True for a unix-domain socket (lighttpd, Apache and mod_fcgid connect to us that way).
bool is_unix_socket(int fd) {
  sockaddr_un addr{};
  socklen_t len = sizeof addr;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API takes sockaddr*
  return ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0 &&
         addr.sun_family == AF_UNIX;
}

// Reads the web server's end-of-input record, which it sends right after the body. True when
// that was all that was left; false (and the connection closes the slow way) on anything else.
bool input_at_end(FCGX_Stream* in) {
  char extra = 0;
  return FCGX_GetStr(&extra, 1, in) == 0 && FCGX_HasSeenEOF(in) == EOF && FCGX_GetError(in) == 0;
}

// Ends the request: what is left of the answer (all of it, up to libfcgi's 8 KiB buffer) and
// the end-of-request record go out in one write, then the connection closes. libfcgi's own close
// shuts down the sending side and waits, up to 2 s, for the web server to close first (so that
// input left unread cannot turn into a TCP reset that discards the answer); that costs every
// request a sleep and a wake-up. On a unix socket, with every byte of input read, nothing can be
// lost, so the connection is closed at once.
void finish_request(FCGX_Request& fcgx, bool unix_socket, bool body_read) {
  FCGX_FClose(fcgx.err);  // before out: the last writer to close writes the end-of-request record
  const bool answered = FCGX_FClose(fcgx.out) == 0;
  if (answered && unix_socket && body_read && fcgx.keepConnection == 0 && input_at_end(fcgx.in)) {
    FCGX_Detach(&fcgx);
  }
  FCGX_Finish_r(&fcgx);
}

long long micros_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

void serve_thread(int listen_fd, bool unix_socket, const HandlerFactory& factory,
                  util::Logger& log) {
  const auto handler = factory();
  util::FastRng rng;
  FcgiRequest slot(listen_fd);
  auto& fcgx = slot.get();
  while (FCGX_Accept_r(&fcgx) >= 0) {
    const auto start = std::chrono::steady_clock::now();
    http::Request request = http::request_from_envp(fcgx.envp);
    request.body_reader = [&fcgx](std::size_t n) { return read_fcgi_body(fcgx.in, n); };
    request.request_id = http::choose_request_id(request, rng);
    const http::Response response = handler->handle(request);
    const std::string head = http::render_response_head(response);
    const bool with_body = http::response_has_body(response, request.method == "HEAD");
    if (FCGX_PutStr(head.data(), static_cast<int>(head.size()), fcgx.out) < 0 ||
        (with_body &&
         FCGX_PutStr(response.body.data(), static_cast<int>(response.body.size()), fcgx.out) < 0)) {
      log.error(request.request_id, "client went away while the answer was written");
    }
    // request.body holds what load_body() read: empty when the handler never asked for it.
    finish_request(fcgx, unix_socket, request.content_length.value_or(0) == request.body.size());
    log.request(request.method, request.path, response.status, micros_since(start),
                request.request_id);
  }
}

}  // namespace

void serve_fastcgi(int listen_fd, int threads, const HandlerFactory& factory, util::Logger& log) {
  const bool unix_socket = is_unix_socket(listen_fd);
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads));
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&] {
      try {
        serve_thread(listen_fd, unix_socket, factory, log);
      } catch (const std::exception& e) {
        log.error("-", std::string("request thread stopped: ") + e.what());
      }
    });
  }
  for (auto& t : pool) t.join();
}

void request_shutdown(int listen_fd) {
  FCGX_ShutdownPending();
  ::shutdown(listen_fd, SHUT_RDWR);
}

int serve_cgi(RequestHandler& handler, util::Logger& log) {
  const auto start = std::chrono::steady_clock::now();
  util::FastRng rng;
  http::Request request = http::request_from_envp(environ);
  request.body_reader = [](std::size_t n) {
    std::string body(n, '\0');
    body.resize(std::fread(body.data(), 1, n, stdin));
    return body;
  };
  request.request_id = http::choose_request_id(request, rng);
  const http::Response response = handler.handle(request);
  const std::string bytes = http::render_response(response, request.method == "HEAD");
  std::fwrite(bytes.data(), 1, bytes.size(), stdout);
  std::fflush(stdout);
  log.request(request.method, request.path, response.status, micros_since(start),
              request.request_id);
  return 0;
}

}  // namespace placard::fcgi
