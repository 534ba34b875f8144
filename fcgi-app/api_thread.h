#pragma once
// The API, one per handler of the worker pool: its own database connection, repositories and
// random generator, used by one thread at a time.
#include <functional>

#include "fcgi-app/worker_pool.h"
#include "lib/admin/admin_router.h"
#include "lib/admin/context.h"
#include "lib/api/routes.h"
#include "lib/api/service.h"
#include "lib/db/admin_db.h"
#include "lib/db/connection_params.h"
#include "lib/db/mysql_session.h"
#include "lib/journal/journaling_clicks.h"
#include "lib/stats/mysql_stats_store.h"
#include "lib/store/event_batcher.h"
#include "lib/store/mysql_account_store.h"
#include "lib/store/mysql_audit_store.h"
#include "lib/store/mysql_catalog_admin_store.h"
#include "lib/store/mysql_event_store.h"
#include "lib/store/mysql_network_store.h"
#include "lib/store/mysql_offer_admin_store.h"
#include "lib/store/mysql_settings_store.h"

namespace placard::fcgi {

class ApiThread : public RequestHandler {
 public:
  ApiThread(const api::SharedServices& shared, const admin::AdminConfig& admin_config,
            const db::ConnectionParams& params, db::EventBatcher& batcher,
            db::StatsCache& stats_cache, journal::ClickJournal& click_journal);
  http::Response handle(http::Request& request) override { return service_.handle(request); }
  void before_long_waits(const std::function<void()>& give_up_turn) override {
    events_.before_waiting(give_up_turn);
  }

 private:
  http::Router routes(const api::SharedServices& shared);

  // The worker's current catalog, and this handler's holder of the one snapshot a request reads
  // from start to end (api::Service takes it once per request).
  const catalog::SnapshotHolder& catalog_;
  catalog::SnapshotHolder pinned_;
  const api::SharedServices local_;
  api::ClientHasher clients_;
  db::DriverThreadScope driver_scope_;
  db::MysqlSession session_;
  db::MysqlEventStore events_;
  journal::JournalingClicks clicks_;  // clicks kept in the journal while the database is down
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

}  // namespace placard::fcgi
