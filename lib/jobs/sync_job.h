#pragma once
// One network sync (contract section 8), the same for POST /admin/api/v1/network/sync, the
// workers' schedule and `placardctl sync`: lock, close runs a dead worker left `running`, check
// credentials, start the run; then pull every page (progress written as it goes), plan, apply
// in one transaction, finish the run. Any failure ends the run `failed` with a sentence for a
// person and leaves the catalog as it was.
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "lib/config/server_config.h"
#include "lib/crypto/aes_gcm.h"
#include "lib/network/admitad.h"
#include "lib/network/http_client.h"
#include "lib/network/pacing.h"
#include "lib/store/sync_store.h"

namespace placard::network {

// Where the networks are and how they are asked: the config file's network.* settings.
struct SyncSettings {
  std::string admitad_api_base = "https://api.admitad.com";
  std::string awin_api_base = "https://api.awin.com";
  HttpClientOptions http;  // timeout_seconds, ca_file (CURLOPT_CAINFO)
  BackoffPolicy backoff;
  int page_size = 0;                            // 0: each adapter's default (Admitad 500, Awin 200)
  std::size_t max_offers = 200000;              // offers pulled in one run
  std::size_t max_bytes = 256UL * 1024 * 1024;  // bytes of the answers read in one run
};

// The config file's network.* settings as the sync uses them.
SyncSettings sync_settings(const config::NetworkConfig& c);

// Column limits of the offers table the sync must fit (titles cut, over-long links and codes
// dropped, an over-long tracking URL or external id makes the offer skipped).
NetworkOffer fit_to_columns(NetworkOffer offer);

enum class SyncStart { started, busy, not_configured };

struct SyncBegin {
  SyncStart state = SyncStart::busy;
  std::uint64_t run_id = 0;
};

struct SyncOutcome {
  bool succeeded = false;
  db::SyncCounts counts;
  std::optional<std::string> error;  // a sentence for a person
};

// A page was pulled: pages done of pages expected (as far as the network's count tells).
using SyncProgress = std::function<void(int pages_done, int pages_total)>;

// Runs syncs; one per process is enough (it keeps Admitad's token between runs, since asking for
// tokens too often is itself refused). Thread-safe: the runs themselves are one at a time.
class SyncJob {
 public:
  SyncJob(SyncSettings settings, const crypto::CredentialKeys* keys)
      : settings_(std::move(settings)), keys_(keys) {}

  // Takes the lock; not taken: busy. Marks interrupted runs failed, checks the network has
  // credentials (none: not_configured, lock released) and starts a run (lock kept for run()).
  SyncBegin begin(db::SyncStore& store, const std::string& network);

  // The rest of a begun run; always releases the lock. stop() makes a run in progress end
  // `failed` at its next page.
  SyncOutcome run(db::SyncStore& store, const std::string& network, std::uint64_t run_id,
                  std::optional<std::uint64_t> account_id, const SyncProgress& on_progress = {});

  void stop() { stopping_ = true; }

 private:
  SyncOutcome pull_and_apply(db::SyncStore& store, const std::string& network, std::uint64_t run_id,
                             std::optional<std::uint64_t> account_id,
                             const SyncProgress& on_progress, std::uint32_t& seen);

  SyncSettings settings_;
  const crypto::CredentialKeys* keys_;
  std::mutex run_mutex_;  // one run at a time in this process; guards tokens_
  AdmitadTokenCache tokens_;
  std::string tokens_for_;  // the sealed credentials the token was asked with
  std::atomic<bool> stopping_{false};
};

// Starts a sync in the background (the worker's threads): what POST /network/sync calls.
class SyncLauncher {
 public:
  virtual ~SyncLauncher() = default;
  // started: the run goes on on another thread; busy: a sync runs somewhere (409);
  // not_configured: the network has no credentials (422).
  virtual SyncBegin launch(const std::string& network, std::optional<std::uint64_t> account_id) = 0;
};

}  // namespace placard::network
