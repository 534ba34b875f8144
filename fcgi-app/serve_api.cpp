#include "fcgi-app/serve_api.h"

#include <fcgiapp.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "fcgi-app/admin_setup.h"
#include "fcgi-app/api_thread.h"
#include "fcgi-app/background_jobs.h"
#include "fcgi-app/listen_socket.h"
#include "fcgi-app/pool_sizing.h"
#include "fcgi-app/signal_watcher.h"
#include "lib/admin/password_work.h"
#include "lib/api/metrics_endpoint.h"
#include "lib/catalog/refresher.h"
#include "lib/db/catalog_source.h"
#include "lib/jobs/sync_runner.h"
#include "lib/journal/replay_job.h"
#include "lib/metrics/registry.h"
#include "lib/metrics/worker_gauges.h"
#include "lib/process/heap_trimmer.h"
#include "lib/store/catalog_loader.h"
#include "lib/util/time_format.h"

namespace placard::fcgi {

namespace {

db::InsertFlavor insert_flavor(const std::string& name) {
  if (name == "returning") return db::InsertFlavor::returning;
  if (name == "transaction") return db::InsertFlavor::transaction;
  return db::InsertFlavor::automatic;
}

}  // namespace

int serve_api(const config::ServerConfig& cfg, util::Logger& log, const tokens::KeyRing& keys,
              const ServeTarget& target) {
  const auto report = [&log](const std::string& msg) { log.info(msg); };
  db::init_driver();
  catalog::SnapshotHolder holder;
  db::CatalogSource catalog_source(db::runtime_params(cfg), db::read_params(cfg),
                                   std::chrono::seconds(cfg.db.read_max_lag_seconds), report);
  catalog::Refresher refresher(
      holder, [&] { return catalog_source.read_version(); },
      [&] {
        std::vector<std::string> problems;
        auto s = catalog_source.load(util::unix_now(), problems);
        for (const auto& p : problems) log.info("catalog: " + p);
        return s;
      },
      report, std::chrono::milliseconds(cfg.catalog_poll_ms), [] { malloc_trim(0); });
  refresher.poll_once();  // the first requests find a snapshot (or 503 until the database answers)
  // Freed heap memory back to the system every 2 s, not only after a rebuild: a burst of events
  // leaves megabytes of freed blocks in the request threads' arenas (lib/process/heap_trimmer.h).
  const process::HeapTrimmer trimmer(std::chrono::seconds(2), [] { malloc_trim(0); });

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
  db::SyncRunner sync_runner(params, sync_job, report);
  admin_config.sync = &sync_runner;
  db::EventBatcher batcher(params, 64, insert_flavor(cfg.db.event_insert), report);
  db::StatsCache stats_cache;  // sealed days' sums, shared by the request threads
  // Clicks on valid offers while the database is down (docs/operations.md, "Click journal").
  journal::ClickJournal click_journal(
      {cfg.journal_dir, static_cast<std::uint64_t>(cfg.journal_max_bytes)}, report);
  metrics::add_worker_gauges(
      metrics, holder, [&batcher] { return batcher.queued(); }, shared.healthy);
  struct JournalGaugeRow {
    const char* name;
    const char* help;
    std::uint64_t journal::JournalGauge::*field;
  };
  for (const JournalGaugeRow& g : {
           JournalGaugeRow{"placard_click_journal_bytes",
                           "Bytes of clicks this process keeps in the host's click journal "
                           "(answered while the database was unreachable, not yet written)",
                           &journal::JournalGauge::bytes},
           JournalGaugeRow{"placard_click_journal_records",
                           "Clicks this process keeps in the click journal, not yet written",
                           &journal::JournalGauge::records},
           JournalGaugeRow{"placard_click_journal_refused",
                           "Clicks the journal refused since start (full, or a write failed): "
                           "answered 503",
                           &journal::JournalGauge::refused},
       }) {
    metrics.gauge(g.name, g.help, {}, [&click_journal, field = g.field] {
      return static_cast<double>(click_journal.gauge().*field);
    });
  }
  metrics.gauge("placard_catalog_replica_lag_seconds",
                "How long the replica's catalog version has been behind the primary's, as the "
                "last poll saw it (0: current; absent: no replica configured or it did not answer)",
                {}, [&catalog_source] { return catalog_source.replica_lag_seconds(); });
  metrics.gauge("placard_catalog_from_replica",
                "1 when the current catalog snapshot was loaded from the replica (db.read_*)", {},
                [&catalog_source] { return catalog_source.from_replica(); });
  const std::string& listen = target.listen;
  const bool spawned = target.listen_fd < 0 && listen.empty() && !FCGX_IsCGI();
  if (target.listen_fd < 0 && listen.empty() && !spawned) {
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
    ApiThread handler(shared, admin_config, params, batcher, stats_cache, click_journal);
    return serve_cgi(handler, log);
  }

  ListenSocket own;  // the socket this process opened itself (not a supervisor's, not fd 0)
  if (target.listen_fd < 0 && !spawned) {
    own = open_listen_socket(listen, cfg.socket_mode, target.socket_group);
  }
  const int fd = target.listen_fd >= 0 ? target.listen_fd : spawned ? 0 : own.fd;
  log.info("placard.fcgi serving on " + (spawned ? std::string("fd 0") : listen) + " with " +
           std::to_string(target.threads) + " threads");
  BackgroundJobs jobs(cfg, params, holder, sync_job, report);
  // The host's click journal is replayed by every FastCGI worker (whoever runs the background
  // jobs): at start, then every second.
  std::optional<journal::ReplayJob> journal_replay;
  if (click_journal.enabled()) {
    journal_replay.emplace(click_journal, params, std::chrono::seconds(1), report);
  }
  std::thread refresh_thread([&] {
    const db::DriverThreadScope scope;
    refresher.run();
  });
  {
    const SignalWatcher watcher(fd, &refresher, log);
    auto pool = pool_settings(target.threads, cfg, spawned);
    // Requests are counted and timed only when someone may read the figures: off, the request
    // path does none of that work.
    if (cfg.metrics.enabled) pool.metrics = &metrics;
    serve_fastcgi(
        fd, pool,
        [&] {
          return std::make_unique<ApiThread>(shared, admin_config, params, batcher, stats_cache,
                                             click_journal);
        },
        log);
  }
  if (journal_replay) journal_replay->stop();
  jobs.stop();
  refresher.stop();
  refresh_thread.join();
  remove_socket_file(own);
  log.info("placard.fcgi stopped");
  return 0;
}

}  // namespace placard::fcgi
