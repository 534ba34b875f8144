#pragma once
// In-memory doubles for the admin handler tests: a transaction that keeps its audit rows only
// when the work returns (as the real one commits), an account store with accounts and sessions,
// and a router with every admin route over them (the other stores fail the test if called).
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/admin/admin_router.h"
#include "lib/admin/password_work.h"
#include "lib/crypto/base64.h"
#include "lib/db/admin_tx.h"
#include "lib/http/router.h"
#include "lib/store/account_store.h"
#include "lib/util/logger.h"
#include "tests/unit/unused_admin_stores.h"

namespace placard::testing {

class FakeAdminTx : public db::AdminTx {
 public:
  void run(const std::function<void()>& work) override {
    pending_audits_.clear();
    pending_bumps_ = 0;
    work();  // an exception leaves the pending rows uncommitted
    audits.insert(audits.end(), pending_audits_.begin(), pending_audits_.end());
    bumps += pending_bumps_;
  }
  void audit(const db::AuditRecord& r) override { pending_audits_.push_back(r); }
  void bump_catalog_version() override { ++pending_bumps_; }

  std::vector<db::AuditRecord> audits;
  int bumps = 0;

 private:
  std::vector<db::AuditRecord> pending_audits_;
  int pending_bumps_ = 0;
};

// Accounts and sessions as the MySQL store keeps them: use_session answers a live session with
// its account in whatever status the account has now; sessions never idle out here.
class InMemoryAccounts : public db::AccountStore {
 public:
  static constexpr std::int64_t kNow = 1'800'000'000;

  struct Session {
    std::uint64_t account_id = 0;
    std::int64_t expires_at = 0;
  };

  std::uint64_t add(const std::string& email, const std::string& status,
                    const std::string& password_hash = "unused") {
    db::Account a;
    a.id = next_id_++;
    a.email = email;
    a.status = status;
    a.password_hash = password_hash;
    a.created_at = kNow - 3600;
    accounts[a.id] = a;
    return a.id;
  }
  void add_session(const db::TokenHash& hash, std::uint64_t account_id) {
    sessions[hash] = {account_id, kNow + 3600};
  }
  std::size_t sessions_of(std::uint64_t account_id) const {
    std::size_t n = 0;
    for (const auto& [hash, s] : sessions) n += s.account_id == account_id ? 1 : 0;
    return n;
  }

  std::optional<db::Account> find_by_email(const std::string& email) override {
    for (const auto& [id, a] : accounts) {
      if (a.email == email) return a;
    }
    return std::nullopt;
  }
  std::optional<db::Account> find(std::uint64_t id) override {
    const auto it = accounts.find(id);
    if (it == accounts.end()) return std::nullopt;
    return it->second;
  }
  std::uint64_t insert_pending(const std::string& email, const std::string& hash) override {
    return add(email, "pending", hash);
  }
  void approve(std::uint64_t id, std::optional<std::uint64_t>) override {
    accounts.at(id).status = "approved";
  }
  void revoke(std::uint64_t id) override { accounts.at(id).status = "revoked"; }
  void set_password_hash(std::uint64_t id, const std::string& hash) override {
    accounts.at(id).password_hash = hash;
  }
  db::AccountPage list(const std::optional<std::string>&, int, std::uint64_t) override {
    return {};
  }
  void create_session(const db::TokenHash& hash, std::uint64_t account_id, int lifetime) override {
    sessions[hash] = {account_id, kNow + lifetime};
  }
  std::optional<db::LiveSession> use_session(const db::TokenHash& hash, int) override {
    const auto it = sessions.find(hash);
    if (it == sessions.end() || it->second.expires_at <= kNow) return std::nullopt;
    db::LiveSession live;
    live.account = accounts.at(it->second.account_id);
    live.expires_at = it->second.expires_at;
    return live;
  }
  void delete_session(const db::TokenHash& hash) override { sessions.erase(hash); }
  void delete_sessions(std::uint64_t account_id) override {
    std::erase_if(sessions, [&](const auto& s) { return s.second.account_id == account_id; });
  }
  std::int64_t now() override { return kNow; }
  void record_sign_in(std::uint64_t account_id, const db::TokenHash&) override {
    sign_ins.push_back(account_id);
  }
  // Reserved attempts stay as failures unless released (a refused or successful attempt).
  std::uint64_t reserve_sign_in(std::optional<std::uint64_t> account_id, const db::TokenHash&,
                                const db::TokenHash&) override {
    reserved_[next_reservation_] = account_id.value_or(0);
    failures.push_back(account_id.value_or(0));
    return next_reservation_++;
  }
  void release_sign_in(std::uint64_t reservation) override {
    const auto it = reserved_.find(reservation);
    if (it == reserved_.end()) return;
    const auto pos = std::find(failures.begin(), failures.end(), it->second);
    if (pos != failures.end()) failures.erase(pos);
    reserved_.erase(it);
  }
  db::FailureWindow email_failures(const db::TokenHash&, int) override { return {}; }
  db::FailureWindow client_failures(const db::TokenHash&, int) override { return {}; }
  std::uint64_t reserve_registration(const db::TokenHash&) override { return 0; }
  void release_registration(std::uint64_t) override {}
  db::FailureWindow client_registrations(const db::TokenHash&, int) override { return {}; }
  db::FailureWindow all_registrations(int) override { return {}; }
  std::uint64_t pending_accounts() override { return 0; }

  std::map<std::uint64_t, db::Account> accounts;
  std::map<db::TokenHash, Session> sessions;
  std::vector<std::uint64_t> sign_ins;  // record_sign_in calls
  std::vector<std::uint64_t> failures;  // attempts reserved and not released (0: unknown account)

 private:
  std::uint64_t next_id_ = 1;
  std::uint64_t next_reservation_ = 1;
  std::map<std::uint64_t, std::uint64_t> reserved_;  // reservation -> account id (0: unknown)
};

// Every admin route over InMemoryAccounts and FakeAdminTx; any other store fails the test.
struct AccountsAdmin {
  AccountsAdmin() {
    config.passwords = &passwords;
    config.public_origin = "http://admin.test";
    holder.set(std::make_shared<const catalog::Snapshot>());
    admin::add_admin_routes(router, context);
  }

  // A request from the service's own origin (the CSRF headers a write needs), with `cookie`.
  http::Response call(const std::string& method, const std::string& path,
                      const std::string& cookie = {}, const std::string& body = {}) {
    http::Request r;
    r.method = method;
    r.path = std::string(admin::kAdminPrefix) + path;
    r.headers = {
        {"host", "admin.test"}, {"origin", "http://admin.test"}, {"x-service-mark", "admin"}};
    if (!cookie.empty()) r.headers.push_back({"cookie", cookie});
    if (!body.empty()) {
      r.headers.push_back({"content-type", "application/json"});
      r.body = body;
      r.content_length = body.size();
    }
    return router.dispatch(r);
  }

  catalog::SnapshotHolder holder;
  tokens::KeyRing keys =
      tokens::KeyRing::parse("k1:" + crypto::base64url_encode(std::string(32, 'k')), "k1");
  util::Logger log{""};
  api::SharedServices shared{holder, keys, log};
  admin::AdminConfig config{"client key", "dummy hash", std::nullopt, {}, {}};
  admin::PasswordWork passwords{config::AuthLimits{}, std::chrono::microseconds{0}};
  FakeAdminTx tx;
  InMemoryAccounts accounts;
  UnusedSettings settings;
  UnusedCountries countries;
  UnusedCategories categories;
  UnusedPlacements placements;
  UnusedOffers offers;
  UnusedAudit audit;
  UnusedStats stats;
  UnusedNetwork network;
  admin::AdminContext context{
      shared,
      config,
      {tx, accounts, settings, countries, categories, placements, offers, audit, stats, network}};
  http::Router router;
};

// A session token and the cookie that carries it over plain HTTP.
struct SessionToken {
  explicit SessionToken(char fill) : raw(32, fill) {}
  std::string raw;
  std::string cookie() const { return "placard_session=" + crypto::base64url_encode(raw); }
};

}  // namespace placard::testing
