#include "fcgi-app/worker_pool.h"

#include <fcgiapp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "fcgi-app/body_deadline.h"
#include "fcgi-app/handler_pool.h"
#include "fcgi-app/turns.h"
#include "lib/http/api_error.h"
#include "lib/http/cgi_gateway.h"
#include "lib/http/deferred.h"
#include "lib/http/json_body.h"
#include "lib/metrics/request_metrics.h"
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

// A web server that keeps FastCGI connections for its next request (FCGI_KEEP_CONN; Apache's
// enablereuse=on) is answered on connections that close like any other. A kept connection held
// its intake thread while idle, and after a slow body that thread waited for a turn at accept()
// that need not come back, with the web server's next request unread; Apache with enablereuse
// failed 1.0 % of its requests (503, AH01067) against kept connections. Closed ones leave it a
// race it still loses now and then (0.6-0.8 %, measured), hence the log line, once a process,
// telling the operator to remove it (docs/operations.md, "Apache: no enablereuse").
void close_when_answered(FCGX_Request& fcgx, std::atomic<bool>& told, util::Logger& log) {
  if (fcgx.keepConnection == 0) return;
  fcgx.keepConnection = 0;
  if (!told.load(std::memory_order_relaxed) && !told.exchange(true)) {
    log.error("-",
              "the web server asks to keep FastCGI connections open between requests "
              "(FCGI_KEEP_CONN; Apache: enablereuse=on), which Placard does not do: each "
              "connection is closed after its answer, and the web server may fail a request now "
              "and then when it reuses one; remove enablereuse (docs/operations.md)");
  }
}

long long micros_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

using Handlers = HandlerPool<RequestHandler>;
// How long a body may keep its reader waiting before the reader's turn goes to another thread.
// Under load the web server's next record is often a scheduler tick away (a few ms on 2 busy
// cores); giving the turn up on every wait cost two thread switches per POST.
constexpr std::chrono::milliseconds kSlowAfter{20};

// Reads the body before a handler is taken for the request. A body over the API's limit is
// not read (the handler answers 413 from Content-Length); one that does not arrive by the
// deadline makes load_body() throw 408, rendered by the handler like any other error.
void read_body_first(FCGX_Request& fcgx, http::Request& request,
                     std::chrono::steady_clock::time_point deadline, Turns::Turn& turn) {
  const std::size_t n = request.content_length.value_or(0);
  if (n == 0 || n > http::kMaxBodyBytes) return;
  if (auto body = read_body_by(fcgx, n, deadline, [&turn](bool starts) { turn.waiting(starts); })) {
    request.body = std::move(*body);
  } else {
    request.body_reader = [](std::size_t) -> std::string { throw http::request_timeout(); };
  }
}

// The handler's answer, on the handler lent for this request.
http::Response handled(http::Request& request, RequestHandler& handler, Turns::Turn& turn,
                       util::Logger& log) {
  try {
    handler.before_long_waits([&turn] { turn.give_up(); });
    return handler.handle(request);
  } catch (const std::exception& e) {
    log.error(request.request_id, std::string("handler failed: ") + e.what());
    return http::render_error(http::internal_error());
  }
}

// What answering a request needs once its handler has returned: on the intake thread, or on the
// thread completing a deferred answer (lib/http/deferred.h) while the intake thread has moved on.
struct Answering {
  std::unique_ptr<FcgiRequest> slot;
  std::optional<Handlers::Lease> handler;  // a deferred answer keeps its handler until it is sent
  std::string method;
  std::string path;
  std::string request_id;
  bool body_read = false;  // every byte of the body was read
  std::chrono::steady_clock::time_point start;
};

void send_answer(Answering& a, const http::Response& response, bool unix_socket, util::Logger& log,
                 const metrics::RequestMetrics* counted) {
  auto& fcgx = a.slot->get();
  const std::string head = http::render_response_head(response);
  const bool with_body = http::response_has_body(response, a.method == "HEAD");
  if (FCGX_PutStr(head.data(), static_cast<int>(head.size()), fcgx.out) < 0 ||
      (with_body &&
       FCGX_PutStr(response.body.data(), static_cast<int>(response.body.size()), fcgx.out) < 0)) {
    log.error(a.request_id, "client went away while the answer was written");
  }
  // Counted before the answer is complete for the web server: a client that has its answer
  // finds it counted (the end-of-request record is still in libfcgi's buffer here).
  if (counted != nullptr) {
    counted->observe(a.path, response.status, static_cast<std::uint64_t>(micros_since(a.start)));
  }
  finish_request(fcgx, unix_socket, a.body_read);
  log.request(a.method, a.path, response.status, micros_since(a.start), a.request_id);
}

// Deferred answers not sent yet: the pool returns only once there are none (they hold its
// handlers and its request slots).
class InFlight {
 public:
  void add() {
    const std::lock_guard lock(mutex_);
    ++n_;
  }
  void done() {
    const std::lock_guard lock(mutex_);
    if (--n_ == 0) none_.notify_all();
  }
  void wait_none() {
    std::unique_lock lock(mutex_);
    none_.wait(lock, [this] { return n_ == 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable none_;
  int n_ = 0;
};

struct Intake {
  int listen_fd;
  bool unix_socket;
  const PoolSettings& settings;
  Handlers& handlers;
  Turns& turns;
  util::Logger& log;
  const metrics::RequestMetrics* counted;
  InFlight& in_flight;
  std::atomic<bool>& told_keep_conn;  // the FCGI_KEEP_CONN line was written
};

// Sends a deferred answer from whichever thread completes it; the request's slot and handler go
// back with it.
void answer_later(const Intake& in, const http::Response& response, std::unique_ptr<Answering> a) {
  in.in_flight.add();
  // The sink is the one owner (std::function needs a copyable callable: a shared_ptr).
  response.later->then(
      [pending = std::shared_ptr<Answering>(std::move(a)), &in](const http::Response& r) mutable {
        try {
          send_answer(*pending, r, in.unix_socket, in.log, in.counted);
        } catch (const std::exception& e) {
          in.log.error(pending->request_id, std::string("answer failed: ") + e.what());
        }
        pending.reset();  // the slot and the handler, before the pool may end
        in.in_flight.done();
      });
}

void intake_thread(const Intake& in) {
  util::FastRng rng;
  Turns::Turn turn(in.turns);
  auto a = std::make_unique<Answering>();
  a->slot = std::make_unique<FcgiRequest>(in.listen_fd);
  while (FCGX_Accept_r(&a->slot->get()) >= 0) {
    auto& fcgx = a->slot->get();
    a->start = std::chrono::steady_clock::now();
    close_when_answered(fcgx, in.told_keep_conn, in.log);
    http::Request request = http::request_from_envp(fcgx.envp);
    request.request_id = http::choose_request_id(request, rng);
    read_body_first(fcgx, request, a->start + in.settings.body_timeout, turn);
    // request.body holds what was read: empty when it was not (over the limit, or too slow).
    a->body_read = request.content_length.value_or(0) == request.body.size();
    a->handler.emplace(in.handlers.lease());
    http::Response response = handled(request, **a->handler, turn, in.log);
    // As the handler leaves them: the path within the base path (metrics routes, the log).
    a->method = std::move(request.method);
    a->path = std::move(request.path);
    a->request_id = std::move(request.request_id);
    if (response.later) {
      answer_later(in, response, std::move(a));
      a = std::make_unique<Answering>();
      a->slot = std::make_unique<FcgiRequest>(in.listen_fd);
    } else {
      a->handler.reset();
      send_answer(*a, response, in.unix_socket, in.log, in.counted);
    }
    turn.take();  // after a slow body: back in line before the next accept
  }
}

// The pool's queue depths, read when scraped.
std::vector<metrics::Registry::Registration> pool_gauges(metrics::Registry& registry,
                                                         const Handlers& handlers,
                                                         const Turns& turns) {
  std::vector<metrics::Registry::Registration> out;
  out.push_back(registry.scoped_gauge(
      "placard_worker_handler_waiters",
      "Requests whose body is read, waiting for a free handler (the pool's hand-off queue)", {},
      [&handlers] { return static_cast<double>(handlers.waiting()); }));
  out.push_back(registry.scoped_gauge(
      "placard_worker_handlers_idle", "Handlers (database connections) not answering a request", {},
      [&handlers] { return static_cast<double>(handlers.idle()); }));
  out.push_back(registry.scoped_gauge(
      "placard_worker_free_turns", "Turns at accept() not taken (0: every turn is busy)", {},
      [&turns] { return static_cast<double>(turns.free_turns()); }));
  return out;
}

// Runs body() in a thread; an exception ends that thread with a log line.
std::thread logged_thread(util::Logger& log, const char* what, std::function<void()> body) {
  return std::thread([&log, what, body = std::move(body)] {
    try {
      body();
    } catch (const std::exception& e) {
      log.error("-", std::string(what) + " stopped: " + e.what());
    }
  });
}

}  // namespace

void serve_fastcgi(int listen_fd, const PoolSettings& settings, const HandlerFactory& factory,
                   util::Logger& log) {
  const bool unix_socket = is_unix_socket(listen_fd);
  Handlers handlers(factory, std::max(settings.handlers, settings.threads));
  // Turns: as many as handlers. When accept() fails (shutdown), each thread leaving gives its
  // turn to a waiting one, whose accept fails at once too: all of them end.
  Turns turns(settings.threads, kSlowAfter);
  std::optional<metrics::RequestMetrics> counted;
  std::vector<metrics::Registry::Registration> gauges;
  if (settings.metrics != nullptr) {
    counted.emplace(*settings.metrics);
    gauges = pool_gauges(*settings.metrics, handlers, turns);
  }
  InFlight in_flight;
  std::atomic<bool> told_keep_conn{false};
  const metrics::RequestMetrics* counting = counted ? &*counted : nullptr;
  const Intake in{listen_fd, unix_socket, settings,  handlers,      turns,
                  log,       counting,    in_flight, told_keep_conn};
  std::vector<std::thread> intake_threads;
  intake_threads.reserve(static_cast<std::size_t>(settings.intake_threads));
  for (int i = 0; i < settings.intake_threads; ++i) {
    intake_threads.push_back(logged_thread(log, "intake thread", [&in] { intake_thread(in); }));
  }
  for (auto& t : intake_threads) t.join();
  in_flight.wait_none();  // deferred answers still to send hold handlers and slots
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
  const http::Response response = http::settled(handler.handle(request));
  const std::string bytes = http::render_response(response, request.method == "HEAD");
  std::fwrite(bytes.data(), 1, bytes.size(), stdout);
  std::fflush(stdout);
  log.request(request.method, request.path, response.status, micros_since(start),
              request.request_id);
  return 0;
}

}  // namespace placard::fcgi
