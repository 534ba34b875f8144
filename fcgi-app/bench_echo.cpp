#include "fcgi-app/bench_echo.h"

#include <memory>
#include <string>

#include "fcgi-app/listen_check.h"
#include "fcgi-app/listen_socket.h"
#include "fcgi-app/pool_sizing.h"
#include "fcgi-app/signal_watcher.h"
#include "fcgi-app/worker_pool.h"

namespace placard::fcgi {

namespace {

class EchoHandler : public RequestHandler {
 public:
  EchoHandler() : body_("{\"echo\":\"" + std::string(1024 - 12, 'x') + "\"}") {}
  http::Response handle(http::Request& request) override {
    auto r = http::Response::json(200, body_);
    r.set_header("X-Request-Id", request.request_id);
    return r;
  }

 private:
  std::string body_;
};

}  // namespace

int run_bench_echo(const Options& opt) {
  util::Logger log(env_or("PLACARD_LOG_FILE", ""));
  const std::string listen = listen_address(opt, "");
  const int threads = thread_count(opt, 8);
  require_sane_listen(listen, log);
  const int fd = listen.empty() ? 0 : open_listen_socket(listen, 0660, opt.socket_group).fd;
  log.info("bench-echo worker on " + (listen.empty() ? std::string("fd 0") : listen));
  const SignalWatcher watcher(fd, nullptr, log);
  serve_fastcgi(
      fd, pool_settings(threads, config::ServerConfig{}, listen.empty()),
      [] { return std::make_unique<EchoHandler>(); }, log);
  return 0;
}

}  // namespace placard::fcgi
