#include "lib/jobs/sync_job.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using placard::network::fit_to_columns;
using placard::network::NetworkOffer;
using placard::network::SyncJob;
using placard::network::SyncStart;

// Records what the job asks of the store; no network is reached in these tests.
class FakeSyncStore : public placard::db::SyncStore {
 public:
  bool lock_free = true;
  bool locked = false;
  bool has_credentials = true;
  std::vector<std::string> calls;

  bool try_lock() override {
    calls.emplace_back("try_lock");
    if (!lock_free) return false;
    locked = true;
    return true;
  }
  void unlock() override {
    calls.emplace_back("unlock");
    locked = false;
  }
  std::uint32_t fail_interrupted_runs() override {
    calls.emplace_back("fail_interrupted_runs");
    return 0;
  }
  std::optional<placard::network::StoredCredentials> credentials(const std::string&) override {
    if (!has_credentials) return std::nullopt;
    return placard::network::StoredCredentials{"k1", std::string(12, 'i'), "sealed",
                                               std::string(16, 't'), 0};
  }
  std::uint64_t start_run(const std::string& network) override {
    calls.push_back("start_run " + network);
    return 42;
  }
  void progress(std::uint64_t, int, int) override { calls.emplace_back("progress"); }
  void finish_run(std::uint64_t run_id, bool succeeded, std::uint32_t,
                  const placard::db::SyncCounts&,
                  const std::optional<std::string>& error) override {
    calls.push_back("finish_run " + std::to_string(run_id) + " " +
                    (succeeded ? "succeeded" : "failed: " + error.value_or("")));
  }
  std::map<std::string, std::optional<std::uint32_t>> category_map(const std::string&) override {
    return {};
  }
  std::vector<placard::network::ExistingOffer> imported_offers(const std::string&) override {
    return {};
  }
  std::vector<std::string> country_codes() override { return {"DE"}; }
  placard::db::SyncCounts apply(const std::string&, const placard::network::SyncPlan&,
                                std::uint64_t, std::optional<std::uint64_t>) override {
    calls.emplace_back("apply");
    return {};
  }
};

TEST(SyncJob, BusyWhenTheLockIsTaken) {
  FakeSyncStore store;
  store.lock_free = false;
  SyncJob job({}, nullptr);
  EXPECT_EQ(job.begin(store, "admitad").state, SyncStart::busy);
  EXPECT_EQ(store.calls, (std::vector<std::string>{"try_lock"}));
}

TEST(SyncJob, NotConfiguredReleasesTheLockAndStartsNoRun) {
  FakeSyncStore store;
  store.has_credentials = false;
  SyncJob job({}, nullptr);
  EXPECT_EQ(job.begin(store, "awin").state, SyncStart::not_configured);
  EXPECT_EQ(store.calls, (std::vector<std::string>{"try_lock", "fail_interrupted_runs", "unlock"}));
  EXPECT_FALSE(store.locked);
}

TEST(SyncJob, BeginClosesInterruptedRunsThenStartsOneAndKeepsTheLock) {
  FakeSyncStore store;
  SyncJob job({}, nullptr);
  const auto begun = job.begin(store, "admitad");
  EXPECT_EQ(begun.state, SyncStart::started);
  EXPECT_EQ(begun.run_id, 42u);
  EXPECT_EQ(store.calls,
            (std::vector<std::string>{"try_lock", "fail_interrupted_runs", "start_run admitad"}));
  EXPECT_TRUE(store.locked);
}

// Without credentials.key the credentials cannot be opened: the run fails with a sentence, the
// plan is never applied, and the lock is released.
TEST(SyncJob, AFailedRunIsFinishedFailedWithASentenceAndUnlocks) {
  FakeSyncStore store;
  SyncJob job({}, nullptr);
  const auto begun = job.begin(store, "admitad");
  const auto outcome = job.run(store, "admitad", begun.run_id, std::nullopt);
  EXPECT_FALSE(outcome.succeeded);
  EXPECT_EQ(outcome.error, "The stored credentials cannot be read: credentials.key is not set");
  EXPECT_EQ(store.calls.back(), "unlock");
  EXPECT_EQ(store.calls[store.calls.size() - 2],
            "finish_run 42 failed: The stored credentials cannot be read: credentials.key is "
            "not set");
  EXPECT_EQ(std::count(store.calls.begin(), store.calls.end(), "apply"), 0);
}

TEST(SyncJob, FitToColumnsCutsTextDropsOverlongCodesAndUntrackableLinks) {
  NetworkOffer o;
  o.external_id = "1";
  std::string title;
  for (int i = 0; i < 250; ++i) title += "\xC3\xA4";  // 250 × 'ä' (2 bytes each)
  o.title = title;
  o.coupon_code = std::string(65, 'C');
  o.image_url = "https://cdn.example/" + std::string(2100, 'x');
  o.tracking_url = "https://t.example/?q=1";
  o.valid_from = 200;
  o.valid_until = 100;
  const auto f = fit_to_columns(o);
  EXPECT_EQ(f.title.size(), 400u);  // 200 characters, whole
  EXPECT_FALSE(f.coupon_code.has_value());
  EXPECT_FALSE(f.image_url.has_value());
  EXPECT_EQ(f.tracking_url, "https://t.example/?q=1");
  EXPECT_FALSE(f.valid_from.has_value());
  EXPECT_EQ(f.valid_until, 100);

  o.tracking_url = "https://t.example/" + std::string(2100, 'y');
  EXPECT_EQ(fit_to_columns(o).tracking_url, "");  // skipped by the plan, counted
  o.tracking_url = "https://t.example/";
  o.external_id = std::string(129, '9');
  EXPECT_EQ(fit_to_columns(o).tracking_url, "");
}

}  // namespace
