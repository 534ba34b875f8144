// placard.fcgi — the FastCGI worker. One binary, three ways to run (chosen at start-up):
//   1. listening on a unix socket or 127.0.0.1:port with N threads (`listen` in the config,
//      PLACARD_LISTEN or --listen);
//   2. spawned by the web server with the listening socket on fd 0 (mod_fcgid, lighttpd bin-path);
//   3. as plain CGI, one request per process.
#include <fcgiapp.h>
#include <malloc.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "fcgi-app/listen_socket.h"
#include "fcgi-app/worker_pool.h"
#include "lib/admin/admin_router.h"
#include "lib/admin/context.h"
#include "lib/admin/password_work.h"
#include "lib/api/metrics_endpoint.h"
#include "lib/api/rate_limits.h"
#include "lib/api/routes.h"
#include "lib/api/service.h"
#include "lib/catalog/refresher.h"
#include "lib/config/admin_config.h"
#include "lib/config/listen_address.h"
#include "lib/config/server_config.h"
#include "lib/crypto/dummy_password_hash.h"
#include "lib/crypto/sha256.h"
#include "lib/db/admin_db.h"
#include "lib/db/catalog_loader.h"
#include "lib/db/connection_params.h"
#include "lib/db/event_batcher.h"
#include "lib/db/mysql_account_store.h"
#include "lib/db/mysql_audit_store.h"
#include "lib/db/mysql_catalog_admin_store.h"
#include "lib/db/mysql_event_store.h"
#include "lib/db/mysql_network_store.h"
#include "lib/db/mysql_offer_admin_store.h"
#include "lib/db/mysql_session.h"
#include "lib/db/mysql_settings_store.h"
#include "lib/db/mysql_stats_store.h"
#include "lib/db/retention.h"
#include "lib/db/rollup_step.h"
#include "lib/db/schema_version.h"
#include "lib/db/sync_runner.h"
#include "lib/metrics/registry.h"
#include "lib/metrics/worker_gauges.h"
#include "lib/network/sync_job.h"
#include "lib/process/core_dumps.h"
#include "lib/process/supervisor.h"
#include "lib/util/service_version.h"
#include "lib/util/time_format.h"

namespace {

using namespace placard;

struct Options {
  std::string config_path;
  std::string listen;
  int threads = 0;
  std::string socket_group;
  int processes = 0;  // 0: this process serves; N: a supervisor of N worker processes
  bool bench_echo = false;
  bool version = false;
};

void usage(std::FILE* out) {
  std::fputs(
      "usage: placard.fcgi [--config PATH] [--listen unix:PATH|127.0.0.1:PORT] [--threads N]\n"
      "                    [--socket-group GROUP] [--processes N] [--bench-echo]\n"
      "       placard.fcgi --version\n"
      "  --config PATH   server config (default: $PLACARD_CONFIG or /etc/placard/placard.conf)\n"
      "  --listen ADDR   where to accept FastCGI connections (default: the config's `listen`,\n"
      "                  or $PLACARD_LISTEN; none: the socket on fd 0, or plain CGI)\n"
      "  --threads N     turns at accept() (4N handlers; default: the config's `threads`, or\n"
      "                  $PLACARD_THREADS)\n"
      "  --socket-group G  group of the unix socket (default: the config's `socket_group`)\n"
      "  --processes N   N worker processes (1..64) on the one listening socket, each with its\n"
      "                  threads, under this process, which starts a new one when one dies\n"
      "  --bench-echo    answer every request with a fixed 1 KiB JSON body (benchmark baseline)\n",
      out);
}

std::optional<Options> parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--config") {
      o.config_path = value();
    } else if (a == "--listen") {
      o.listen = value();
    } else if (a == "--threads") {
      o.threads = std::stoi(value());
    } else if (a == "--socket-group") {
      o.socket_group = value();
    } else if (a == "--processes") {
      o.processes = std::stoi(value());
      if (o.processes < 1 || o.processes > 64) {
        throw std::invalid_argument("--processes must be 1..64");
      }
    } else if (a == "--bench-echo") {
      o.bench_echo = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "--help" || a == "-h") {
      usage(stdout);
      return std::nullopt;
    } else {
      throw std::invalid_argument("unknown argument " + a);
    }
  }
  return o;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): before any thread starts
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

// Refuses wildcard and malformed listen addresses (whatever set them: config, environment or
// --listen); an address other machines can reach starts with a warning in the log.
void require_sane_listen(const std::string& listen, util::Logger& log) {
  const auto check = config::check_listen(listen);
  if (!check.error.empty()) throw std::runtime_error(check.error);
  if (!check.warning.empty()) log.info("warning: " + check.warning);
}

// Eight intake threads per request thread (at least 32), so that dozens of bodies arriving
// slowly through a web server that streams them (Apache's mod_proxy_fcgi) leave room for every
// other request. Spawned on fd 0 (mod_fcgid, lighttpd bin-path), the web server has read the
// whole body before it connects: one intake thread per request thread is enough.
fcgi::PoolSettings pool_settings(int threads, const config::ServerConfig& cfg, bool spawned) {
  fcgi::PoolSettings s;
  s.threads = threads;
  // Four handlers per turn: a request waiting for the event writer's commit holds a handler, not
  // a turn, so up to 4x `threads` events reach one batch (issue 24: with `threads` of them, a
  // batch held at most 8 events and the commit's flush bounded impressions and clicks).
  s.handlers = 4 * threads;
  s.intake_threads = cfg.intake_threads > 0 ? cfg.intake_threads
                     : spawned              ? threads
                                            : std::max(32, 8 * threads);
  s.body_timeout = std::chrono::milliseconds(cfg.body_timeout_ms);
  return s;
}

db::InsertFlavor insert_flavor(const std::string& name) {
  if (name == "returning") return db::InsertFlavor::returning;
  if (name == "transaction") return db::InsertFlavor::transaction;
  return db::InsertFlavor::automatic;
}

// The API, one per handler of the pool: its own connection, repositories and random generator,
// used by one thread at a time.
class ApiThread : public fcgi::RequestHandler {
 public:
  ApiThread(const api::SharedServices& shared, const admin::AdminConfig& admin_config,
            const db::ConnectionParams& params, db::EventBatcher& batcher,
            db::StatsCache& stats_cache)
      : catalog_(shared.snapshots),
        local_{pinned_, shared.keys, shared.log, shared.healthy, shared.metrics},
        clients_(admin_config.trusted_proxies, admin_config.client_day_secret),
        session_(params),
        events_(session_, batcher),
        admin_db_(session_, [&log = shared.log](const std::string& m) { log.info(m); }),
        accounts_(admin_db_),
        settings_(admin_db_),
        countries_(admin_db_),
        categories_(admin_db_),
        placements_(admin_db_),
        offer_admin_(admin_db_),
        audit_(admin_db_),
        stats_(admin_db_, stats_cache),
        network_(admin_db_),
        services_{events_, events_, rng_, nonces_, macs_, clients_},
        admin_{local_,
               admin_config,
               {admin_db_, accounts_, settings_, countries_, categories_, placements_, offer_admin_,
                audit_, stats_, network_}},
        service_(local_, routes(local_), {admin_config.base_path, admin_config.trusted_proxies},
                 &catalog_) {}
  http::Response handle(http::Request& request) override { return service_.handle(request); }
  void before_long_waits(const std::function<void()>& give_up_turn) override {
    events_.before_waiting(give_up_turn);
  }

 private:
  http::Router routes(const api::SharedServices& shared) {
    http::Router r = api::make_router(shared, services_);
    admin::add_admin_routes(r, admin_);
    return r;
  }

  // The worker's current catalog, and this handler's holder of the one snapshot a request reads
  // from start to end (api::Service takes it once per request).
  const catalog::SnapshotHolder& catalog_;
  catalog::SnapshotHolder pinned_;
  const api::SharedServices local_;
  api::ClientHasher clients_;
  db::DriverThreadScope driver_scope_;
  db::MysqlSession session_;
  db::MysqlEventStore events_;
  db::AdminDb admin_db_;
  db::MysqlAccountStore accounts_;
  db::MysqlSettingsStore settings_;
  db::MysqlCountryStore countries_;
  db::MysqlCategoryStore categories_;
  db::MysqlPlacementStore placements_;
  db::MysqlOfferAdminStore offer_admin_;
  db::MysqlAuditStore audit_;
  db::MysqlStatsStore stats_;
  db::MysqlNetworkStore network_;
  util::FastRng rng_;
  crypto::RandomPool nonces_;
  tokens::MacWorkspace macs_;
  api::ThreadServices services_;
  admin::AdminContext admin_;
  api::Service service_;
};

// The admin API's shared secrets: the key that turns client addresses into keyed hashes (derived
// from the token keys, so it needs no setting of its own) and the dummy password hash, verified
// for an unknown email so that it costs what a wrong password costs (a constant: none is computed
// at start).
admin::AdminConfig make_admin_config(const config::ServerConfig& cfg) {
  const auto key = crypto::sha256("placard client address key\n" + cfg.token_keys);
  admin::AdminConfig c{std::string(reinterpret_cast<const char*>(key.data()), key.size()),
                       std::string(crypto::dummy_password_hash()),
                       std::nullopt,
                       {},
                       {}};
  c.limits = cfg.auth;
  // Per-client limits of impressions and clicks: the secret their daily keys are derived from.
  const auto day_secret = crypto::sha256("placard client day secret\n" + cfg.token_keys);
  c.client_day_secret.assign(reinterpret_cast<const char*>(day_secret.data()), day_secret.size());
  c.trusted_proxies = http::TrustedProxies::parse(cfg.trusted_proxies);
  c.public_origin = cfg.public_origin;
  c.base_path = cfg.base_path;
  if (!cfg.credentials_key.empty()) {
    c.credential_keys = crypto::CredentialKeys::parse(cfg.credentials_key);
  }
  return c;
}

// Baseline for benchmarks: the same adapter and threads, a constant 1 KiB answer.
class EchoHandler : public fcgi::RequestHandler {
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

// Waits for SIGTERM/SIGINT/SIGHUP (blocked in every other thread) and starts the shutdown.
class SignalWatcher {
 public:
  SignalWatcher(int listen_fd, catalog::Refresher* refresher, util::Logger& log)
      : thread_([=, &log] {
          sigset_t set = blocked_set();
          int sig = 0;
          sigwait(&set, &sig);
          if (sig != SIGUSR2) log.info(std::string("signal ") + strsignal(sig) + ": shutting down");
          if (refresher != nullptr) refresher->stop();
          fcgi::request_shutdown(listen_fd);
        }) {}
  ~SignalWatcher() {
    pthread_kill(thread_.native_handle(), SIGUSR2);  // wakes it when no signal came
    thread_.join();
  }
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  static sigset_t blocked_set() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGUSR2}) sigaddset(&set, s);
    return set;
  }

 private:
  std::thread thread_;
};

int serve_api(const config::ServerConfig& cfg, util::Logger& log, const tokens::KeyRing& keys,
              const std::string& listen, const std::string& socket_group, int threads,
              int listen_fd);

int run(const Options& opt) {
  std::signal(SIGPIPE, SIG_IGN);
  // A snapshot's large arrays come from mmap, so each rebuild gives the old one back to the
  // system instead of leaving it in the heap (measured: resident memory doubled otherwise).
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  const sigset_t blocked = SignalWatcher::blocked_set();
  pthread_sigmask(SIG_BLOCK, &blocked, nullptr);  // inherited by every thread made from here
  FCGX_Init();

  if (opt.bench_echo) {
    util::Logger log(env_or("PLACARD_LOG_FILE", ""));
    const std::string listen = !opt.listen.empty() ? opt.listen : env_or("PLACARD_LISTEN", "");
    const int threads = opt.threads > 0 ? opt.threads : std::stoi(env_or("PLACARD_THREADS", "8"));
    require_sane_listen(listen, log);
    const int fd = listen.empty() ? 0 : fcgi::open_listen_socket(listen, 0660, opt.socket_group);
    log.info("bench-echo worker on " + (listen.empty() ? std::string("fd 0") : listen));
    const SignalWatcher watcher(fd, nullptr, log);
    fcgi::serve_fastcgi(
        fd, pool_settings(threads, config::ServerConfig{}, listen.empty()),
        [] { return std::make_unique<EchoHandler>(); }, log);
    return 0;
  }

  const std::string config_path = !opt.config_path.empty()
                                      ? opt.config_path
                                      : env_or("PLACARD_CONFIG", "/etc/placard/placard.conf");
  const auto cfg = config::load_server_config(config_path);
  if (config::has_migration_credentials(cfg)) {
    throw std::runtime_error(
        config_path +
        " holds migration credentials (db.admin_user, db.admin_password): the worker never "
        "needs them; move them to placard-admin.conf, which only placardctl reads");
  }
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
  const std::string listen =
      !opt.listen.empty() ? opt.listen : env_or("PLACARD_LISTEN", cfg.listen);
  require_sane_listen(listen, log);
  const int threads = opt.threads > 0
                          ? opt.threads
                          : std::stoi(env_or("PLACARD_THREADS", std::to_string(cfg.threads)));
  const std::string socket_group = !opt.socket_group.empty() ? opt.socket_group : cfg.socket_group;
  if (opt.processes == 0) return serve_api(cfg, log, keys, listen, socket_group, threads, -1);

  // Supervisor: the socket is opened here, once, and outlives every worker process.
  if (listen.empty()) throw std::runtime_error("--processes needs a listen address");
  const int fd = fcgi::open_listen_socket(listen, cfg.socket_mode, socket_group);
  log.info("placard.fcgi supervising " + std::to_string(opt.processes) + " worker processes on " +
           listen);
  process::SupervisorOptions supervisor;
  supervisor.processes = opt.processes;
  const int status = process::supervise(
      supervisor, [&] { return serve_api(cfg, log, keys, listen, socket_group, threads, fd); },
      [&](const std::string& msg) { log.info(msg); });
  if (listen.rfind("unix:", 0) == 0) ::unlink(listen.substr(5).c_str());
  log.info("placard.fcgi supervisor stopped");
  return status;
}

// Serves the API: on listen_fd when given (a worker process of the supervisor), else on the
// `listen` address, the socket on fd 0 (spawned by the web server) or as plain CGI.
int serve_api(const config::ServerConfig& cfg, util::Logger& log, const tokens::KeyRing& keys,
              const std::string& listen, const std::string& socket_group, int threads,
              int listen_fd) {
  db::init_driver();
  catalog::SnapshotHolder holder;
  db::MysqlSession catalog_session(db::runtime_params(cfg));
  catalog::Refresher refresher(
      holder, [&] { return db::read_catalog_version(catalog_session); },
      [&] {
        std::vector<std::string> problems;
        auto s = db::load_snapshot(catalog_session, util::unix_now(), problems);
        for (const auto& p : problems) log.info("catalog: " + p);
        return s;
      },
      [&](const std::string& msg) { log.info(msg); },
      std::chrono::milliseconds(cfg.catalog_poll_ms), [] { malloc_trim(0); });
  refresher.poll_once();  // the first requests find a snapshot (or 503 until the database answers)

  // Healthy while a poll confirmed the snapshot lately: ten poll intervals, at least 5 s.
  const auto max_age = std::max(std::chrono::milliseconds(5000),
                                10 * std::chrono::milliseconds(cfg.catalog_poll_ms));
  metrics::Registry metrics;  // GET /metrics (metrics.* keys); lib/metrics/registry.h
  const api::MetricsEndpoint metrics_endpoint(metrics, cfg.metrics,
                                              http::TrustedProxies::parse(cfg.trusted_proxies));
  const api::SharedServices shared{
      holder, keys, log,
      [&refresher, max_age] { return refresher.fresh(std::chrono::steady_clock::now(), max_age); },
      &metrics_endpoint};
  admin::AdminConfig admin_config = make_admin_config(cfg);
  // Today's verification cost is measured on first need (a start pays no hash: shared hosts).
  admin::PasswordWork passwords(cfg.auth,
                                std::chrono::microseconds{0});  // hashes at once: password_hash.*
  admin_config.passwords = &passwords;
  const auto params = db::runtime_params(cfg);
  // Network syncs: started by the admin API on a background thread, or by the schedule.
  network::SyncJob sync_job(
      network::sync_settings(cfg.network),
      admin_config.credential_keys ? &*admin_config.credential_keys : nullptr);
  db::SyncRunner sync_runner(params, sync_job, [&](const std::string& msg) { log.info(msg); });
  admin_config.sync = &sync_runner;
  db::EventBatcher batcher(params, 64, insert_flavor(cfg.db.event_insert),
                           [&](const std::string& msg) { log.info(msg); });
  db::StatsCache stats_cache;  // sealed days' sums, shared by the request threads
  metrics::add_worker_gauges(
      metrics, holder, [&batcher] { return batcher.queued(); }, shared.healthy);
  const bool spawned = listen_fd < 0 && listen.empty() && !FCGX_IsCGI();
  if (listen_fd < 0 && listen.empty() && !spawned) {
    if (std::getenv("GATEWAY_INTERFACE") == nullptr) {  // NOLINT(concurrency-mt-unsafe)
      std::fputs(
          "placard.fcgi: nothing to listen on: set `listen` in the config, or start it "
          "from a web server (FastCGI or CGI)\n",
          stderr);
      return 2;
    }
    // One request per process: a sync begun here would end with the process (503; placardctl
    // sync, or a FastCGI worker, runs them).
    admin_config.sync = nullptr;
    ApiThread handler(shared, admin_config, params, batcher, stats_cache);
    return fcgi::serve_cgi(handler, log);
  }

  const int fd = listen_fd >= 0 ? listen_fd
                 : spawned      ? 0
                                : fcgi::open_listen_socket(listen, cfg.socket_mode, socket_group);
  log.info("placard.fcgi serving on " + (spawned ? std::string("fd 0") : listen) + " with " +
           std::to_string(threads) + " threads");
  // Background work (rollups every second, retention, scheduled syncs), one runner at a time
  // across hosts; none with background_jobs = cron (placardctl runs it from cron instead).
  const bool background = cfg.background_jobs == "workers";
  std::optional<db::RollupJob> rollups;
  if (background) {
    rollups.emplace(
        params, std::chrono::seconds(1),
        [&holder]() -> std::optional<db::RateLimits> {
          const auto snap = holder.get();
          if (!snap) return std::nullopt;
          return api::rate_limits(snap->settings);
        },
        [&](const std::string& msg) { log.info(msg); });
  }
  std::optional<db::RetentionJob> retention;
  if (background && cfg.retention_interval_seconds > 0) {
    const std::chrono::seconds interval(cfg.retention_interval_seconds);
    retention.emplace(
        params, std::min(interval, std::chrono::seconds(30)), interval,
        [&holder,
         pending_days = cfg.auth.pending_days]() -> std::optional<db::RetentionJob::Settings> {
          const auto snap = holder.get();
          if (!snap) return std::nullopt;
          return db::RetentionJob::Settings{snap->settings.raw_event_retention_days,
                                            snap->settings.token_ttl_seconds, pending_days};
        },
        [&](const std::string& msg) { log.info(msg); });
  }
  std::optional<db::SyncSchedule> sync_schedule;
  if (background) {
    sync_schedule.emplace(
        params, std::chrono::seconds(cfg.network.schedule_check_seconds), sync_job,
        [&holder]() -> std::optional<int> {
          const auto snap = holder.get();
          if (!snap) return std::nullopt;
          return snap->settings.network_sync_interval_minutes;
        },
        [&](const std::string& msg) { log.info(msg); });
  }
  std::thread refresh_thread([&] {
    const db::DriverThreadScope scope;
    refresher.run();
  });
  {
    const SignalWatcher watcher(fd, &refresher, log);
    auto pool = pool_settings(threads, cfg, spawned);
    pool.metrics = &metrics;
    fcgi::serve_fastcgi(
        fd, pool,
        [&] {
          return std::make_unique<ApiThread>(shared, admin_config, params, batcher, stats_cache);
        },
        log);
  }
  if (sync_schedule) sync_schedule->stop();
  if (retention) retention->stop();
  if (rollups) rollups->stop();
  refresher.stop();
  refresh_thread.join();
  retention.reset();
  if (listen_fd < 0 && !spawned && listen.rfind("unix:", 0) == 0) {
    ::unlink(listen.substr(5).c_str());
  }
  log.info("placard.fcgi stopped");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  placard::process::forbid_core_dumps();  // before any secret is read (issue 22, item 8)
  try {
    const auto opt = parse_args(argc, argv);
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
