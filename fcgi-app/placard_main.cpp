// placard.fcgi — the FastCGI worker. One binary, three ways to run (chosen at start-up):
//   1. listening on a unix socket or 127.0.0.1:port with N threads (`listen` in the config,
//      PLACARD_LISTEN or --listen);
//   2. spawned by the web server with the listening socket on fd 0 (mod_fcgid, lighttpd bin-path);
//   3. as plain CGI, one request per process.
// Here only the wiring: flags (options.*), the worker (serve_api.*), the benchmark baseline
// (bench_echo.*), and the supervisor of --processes N.
#include <fcgiapp.h>
#include <malloc.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

#include "fcgi-app/bench_echo.h"
#include "fcgi-app/listen_check.h"
#include "fcgi-app/listen_socket.h"
#include "fcgi-app/options.h"
#include "fcgi-app/serve_api.h"
#include "fcgi-app/signal_watcher.h"
#include "lib/config/admin_config.h"
#include "lib/config/server_config.h"
#include "lib/db/connection_params.h"
#include "lib/db/schema_version.h"
#include "lib/process/core_dumps.h"
#include "lib/process/supervisor.h"
#include "lib/util/service_version.h"

namespace {

using namespace placard;

// The config, refused when it holds what the worker must never read, and the schema checked.
config::ServerConfig load_worker_config(const std::string& path) {
  auto cfg = config::load_server_config(path);
  if (config::has_migration_credentials(cfg)) {
    throw std::runtime_error(
        path +
        " holds migration credentials (db.admin_user, db.admin_password): the worker never "
        "needs them; move them to placard-admin.conf, which only placardctl reads");
  }
  return cfg;
}

int run(const fcgi::Options& opt) {
  std::signal(SIGPIPE, SIG_IGN);
  // A snapshot's large arrays come from mmap, so each rebuild gives the old one back to the
  // system instead of leaving it in the heap (measured: resident memory doubled otherwise).
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  fcgi::block_watched_signals();  // inherited by every thread made from here
  FCGX_Init();
  if (opt.bench_echo) return fcgi::run_bench_echo(opt);

  const std::string config_path = !opt.config_path.empty()
                                      ? opt.config_path
                                      : fcgi::env_or("PLACARD_CONFIG", "/etc/placard/placard.conf");
  const auto cfg = load_worker_config(config_path);
  util::Logger log(cfg.log_file);
  const auto keys = tokens::KeyRing::parse(cfg.token_keys, cfg.token_active_key);
  const std::string too_old = db::check_schema_at_start(db::runtime_params(cfg),
                                                        [&](const std::string& m) { log.info(m); });
  if (!too_old.empty()) throw std::runtime_error(too_old);
  if (cfg.public_origin.empty()) {
    log.info("warning: public_origin is not set in " + config_path +
             ": admin writes (sign-in included) are refused until it is (placardctl config set "
             "public_origin https://HOST), unless the database still holds the older publicOrigin");
  }
  fcgi::ServeTarget target;
  target.listen = fcgi::listen_address(opt, cfg.listen);
  fcgi::require_sane_listen(target.listen, log);
  target.threads = fcgi::thread_count(opt, cfg.threads);
  target.socket_group = !opt.socket_group.empty() ? opt.socket_group : cfg.socket_group;
  if (opt.processes == 0) return fcgi::serve_api(cfg, log, keys, target);

  // Supervisor: the socket is opened here, once, and outlives every worker process.
  if (target.listen.empty()) throw std::runtime_error("--processes needs a listen address");
  const auto listening =
      fcgi::open_listen_socket(target.listen, cfg.socket_mode, target.socket_group);
  target.listen_fd = listening.fd;
  log.info("placard.fcgi supervising " + std::to_string(opt.processes) + " worker processes on " +
           target.listen);
  process::SupervisorOptions supervisor;
  supervisor.processes = opt.processes;
  const int status = process::supervise(
      supervisor, [&] { return fcgi::serve_api(cfg, log, keys, target); },
      [&](const std::string& msg) { log.info(msg); });
  fcgi::remove_socket_file(listening);
  log.info("placard.fcgi supervisor stopped");
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  placard::process::forbid_core_dumps();  // before any secret is read (issue 22, item 8)
  try {
    const auto opt = placard::fcgi::parse_args(argc, argv);
    if (!opt) return 0;
    if (opt->version) {
      std::printf("placard.fcgi %s\n", placard::util::service_version());
      return 0;
    }
    return run(*opt);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "placard.fcgi: %s\n", e.what());
    return 1;
  }
}
