#include "fcgi-app/api_thread.h"

#include <string>

namespace placard::fcgi {

ApiThread::ApiThread(const api::SharedServices& shared, const admin::AdminConfig& admin_config,
                     const db::ConnectionParams& params, db::EventBatcher& batcher,
                     db::StatsCache& stats_cache, journal::ClickJournal& click_journal)
    : catalog_(shared.snapshots),
      local_{pinned_, shared.keys, shared.log, shared.healthy, shared.metrics},
      clients_(admin_config.trusted_proxies, admin_config.client_day_secret),
      session_(params),
      events_(session_, batcher),
      clicks_(events_, click_journal),
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
      services_{events_, clicks_, rng_, nonces_, macs_, clients_},
      admin_{local_,
             admin_config,
             {admin_db_, accounts_, settings_, countries_, categories_, placements_, offer_admin_,
              audit_, stats_, network_}},
      service_(local_, routes(local_), {admin_config.base_path, admin_config.trusted_proxies},
               &catalog_) {}

http::Router ApiThread::routes(const api::SharedServices& shared) {
  http::Router r = api::make_router(shared, services_);
  admin::add_admin_routes(r, admin_);
  return r;
}

}  // namespace placard::fcgi
