// The admin handlers of settings, countries, categories and placements against in-memory fakes of
// their stores: what each write stores, its audit row, when it bumps the catalog version, and
// that a refused write leaves everything as it was (the fake transaction keeps audit rows and
// bumps only when the work returns, as the real one commits).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/admin/admin_router.h"
#include "lib/crypto/base64.h"
#include "lib/db/errors.h"
#include "lib/http/api_error.h"
#include "lib/http/router.h"
#include "lib/util/logger.h"
#include "tests/unit/admin_fakes.h"

namespace {

using placard::http::ApiError;
using placard::http::Request;
using placard::http::Response;
namespace db = placard::db;

constexpr std::uint64_t kActor = 7;

using FakeTx = placard::testing::FakeAdminTx;

// Every session is live and belongs to account 7.
class FakeAccounts : public db::AccountStore {
 public:
  std::optional<db::Account> find_by_email(const std::string&) override { return std::nullopt; }
  std::optional<db::Account> find(std::uint64_t) override { return std::nullopt; }
  std::uint64_t insert_pending(const std::string&, const std::string&) override { return 0; }
  void approve(std::uint64_t, std::optional<std::uint64_t>) override {}
  void revoke(std::uint64_t) override {}
  void set_password_hash(std::uint64_t, const std::string&) override {}
  db::AccountPage list(const std::optional<std::string>&, int, std::uint64_t) override {
    return {};
  }
  void create_session(const db::TokenHash&, std::uint64_t, int) override {}
  std::optional<db::LiveSession> use_session(const db::TokenHash&, int) override {
    db::LiveSession s;
    s.account.id = kActor;
    s.account.status = "approved";
    s.expires_at = 2'000'000'000;
    return s;
  }
  void delete_session(const db::TokenHash&) override {}
  void delete_sessions(std::uint64_t) override {}
  std::int64_t now() override { return 1'800'000'000; }
  void record_sign_in(std::uint64_t, const db::TokenHash&) override {}
  std::uint64_t reserve_sign_in(std::optional<std::uint64_t>, const db::TokenHash&,
                                const db::TokenHash&) override {
    return 0;
  }
  void release_sign_in(std::uint64_t) override {}
  db::FailureWindow email_failures(const db::TokenHash&, int) override { return {}; }
  db::FailureWindow client_failures(const db::TokenHash&, int) override { return {}; }
  std::uint64_t reserve_registration(const db::TokenHash&) override { return 0; }
  void release_registration(std::uint64_t) override {}
  db::FailureWindow client_registrations(const db::TokenHash&, int) override { return {}; }
  db::FailureWindow all_registrations(int) override { return {}; }
  std::uint64_t pending_accounts() override { return 0; }
};

class FakeSettings : public db::SettingsStore {
 public:
  std::map<std::string, std::string> read_all(bool) override { return rows; }
  void write(const std::string& name, const std::string& value) override { rows[name] = value; }
  std::map<std::string, std::string> rows{
      {"available", "true"}, {"tokenTtlSeconds", "86400"}, {"rawEventRetentionDays", "90"}};
};

class FakeCountries : public db::CountryStore {
 public:
  std::vector<db::CountryRecord> list(bool) override { return rows; }
  void set_selected(const std::string& code, bool selected) override {
    writes.push_back(code);
    for (auto& c : rows) {
      if (c.code == code) c.selected = selected;
    }
  }
  std::vector<db::CountryRecord> rows{
      {"DE", "Germany", true}, {"FR", "France", true}, {"GB", "United Kingdom", false}};
  std::vector<std::string> writes;
};

class FakeCategories : public db::CategoryStore {
 public:
  db::CategoryPage list(std::optional<bool>, int, std::uint64_t) override { return {}; }
  std::optional<db::CategoryRecord> find(const std::string& path) override {
    const auto it = rows.find(path);
    if (it == rows.end()) return std::nullopt;
    auto c = it->second;
    c.child_count =
        static_cast<std::uint64_t>(std::count_if(rows.begin(), rows.end(), [&](const auto& r) {
          return r.first.rfind(path + ".", 0) == 0 &&
                 r.first.find('.', path.size() + 1) == std::string::npos;
        }));
    return c;
  }
  std::uint32_t insert(const db::NewCategory& n) override {
    if (rows.count(n.path) != 0) throw db::DuplicateKey("duplicate");
    parents[n.path] = n.parent_id;
    db::CategoryRecord c;
    c.id = next_id++;
    c.path = n.path;
    c.name = n.name;
    c.icon = n.icon;
    c.display_order = n.display_order;
    c.enabled = n.enabled;
    c.effectively_enabled = n.enabled;
    rows[n.path] = c;
    return c.id;
  }
  void update(std::uint32_t id, const db::CategoryChange& ch) override {
    for (auto& [path, c] : rows) {
      if (c.id != id) continue;
      if (ch.name) c.name = *ch.name;
      if (ch.icon) c.icon = *ch.icon;
      if (ch.display_order) c.display_order = *ch.display_order;
      if (ch.enabled) c.enabled = c.effectively_enabled = *ch.enabled;
    }
  }
  void remove(std::uint32_t id) override {
    std::erase_if(rows, [&](const auto& r) { return r.second.id == id; });
  }
  std::map<std::string, db::CategoryRecord> rows;
  std::map<std::string, std::optional<std::uint32_t>> parents;
  std::uint32_t next_id = 100;
};

class FakePlacements : public db::PlacementStore {
 public:
  db::PlacementPage list(std::optional<bool>, int, std::uint64_t) override { return {}; }
  std::optional<db::PlacementRecord> find(const std::string& name) override {
    const auto it = rows.find(name);
    if (it == rows.end()) return std::nullopt;
    return it->second;
  }
  void insert(const db::PlacementRecord& p) override { rows[p.name] = p; }
  void update(const std::string& name, const db::PlacementChange& ch) override {
    auto& p = rows.at(name);
    if (ch.max_offers) p.max_offers = *ch.max_offers;
    if (ch.enabled) p.enabled = *ch.enabled;
  }
  void remove(const std::string& name) override { rows.erase(name); }
  std::map<std::string, db::PlacementRecord> rows{{"sidebar", {"sidebar", 3, true}}};
};

class CatalogAdminHandlers : public ::testing::Test {
 protected:
  CatalogAdminHandlers() {
    holder.set(std::make_shared<const placard::catalog::Snapshot>());
    placard::admin::add_admin_routes(router, context);
  }

  // A request of the signed-in account, with the CSRF headers a write needs.
  Response call(const std::string& method, const std::string& path, const std::string& body = "") {
    Request r;
    r.method = method;
    r.path = std::string(placard::admin::kAdminPrefix) + path;
    r.headers = {
        {"host", "admin.test"},
        {"origin", "http://admin.test"},
        {"x-service-mark", "admin"},
        {"cookie", "placard_session=" + placard::crypto::base64url_encode(std::string(32, 's'))}};
    if (!body.empty()) {
      r.headers.push_back({"content-type", "application/json"});
      r.body = body;
      r.content_length = body.size();
    }
    return router.dispatch(r);
  }

  // The refusal of a request, as "<status> <code> <field>".
  std::string refusal(const std::string& method, const std::string& path, const std::string& body) {
    try {
      const auto resp = call(method, path, body);
      return "answered " + std::to_string(resp.status);
    } catch (const ApiError& e) {
      return std::to_string(e.status()) + " " + e.code() + " " + e.field();
    } catch (const db::DuplicateKey&) {
      return "duplicate key";
    }
  }

  placard::catalog::SnapshotHolder holder;
  placard::tokens::KeyRing keys = placard::tokens::KeyRing::parse(
      "k1:" + placard::crypto::base64url_encode(std::string(32, 'k')), "k1");
  placard::util::Logger log{""};
  placard::api::SharedServices shared{holder, keys, log};
  placard::admin::AdminConfig config{
      "client key", "dummy hash", std::nullopt,        {}, {}, nullptr,
      {},           nullptr,      "http://admin.test", ""};
  FakeTx tx;
  FakeAccounts accounts;
  FakeSettings settings;
  FakeCountries countries;
  FakeCategories categories;
  FakePlacements placements;
  placard::testing::UnusedOffers offers;
  placard::testing::UnusedAudit audit;
  placard::testing::UnusedStats stats;
  placard::testing::UnusedNetwork network;
  placard::admin::AdminContext context{
      shared,
      config,
      {tx, accounts, settings, countries, categories, placements, offers, audit, stats, network}};
  placard::http::Router router;
};

TEST_F(CatalogAdminHandlers, SettingsPatchStoresTextFormsAuditsAndBumps) {
  const auto r = call("PATCH", "/settings",
                      R"({"available":false,"minExtensionVersion":"01.10.0",)"
                      R"("allowedClientOrigins":["HTTPS://A.example:443","https://a.example"]})");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(settings.rows["available"], "false");
  EXPECT_EQ(settings.rows["minExtensionVersion"], "1.10.0");
  EXPECT_EQ(settings.rows["allowedClientOrigins"], R"(["https://a.example"])");
  ASSERT_EQ(tx.audits.size(), 1U);
  EXPECT_EQ(tx.audits[0].account_id, kActor);
  EXPECT_EQ(tx.audits[0].action, "settings.update");
  EXPECT_EQ(tx.audits[0].resource, "settings");
  EXPECT_NE(tx.audits[0].before_json.find(R"("available":true)"), std::string::npos);
  EXPECT_EQ(tx.audits[0].after_json, r.body);
  EXPECT_EQ(tx.bumps, 1);
}

TEST_F(CatalogAdminHandlers, SettingsPatchThatChangesNothingDoesNotBump) {
  EXPECT_EQ(call("PATCH", "/settings", R"({"available":true})").status, 200);
  EXPECT_EQ(tx.audits.size(), 1U);
  EXPECT_EQ(tx.bumps, 0);
}

TEST_F(CatalogAdminHandlers, SettingsRefusalsChangeNothing) {
  const auto before = settings.rows;
  EXPECT_EQ(
      refusal("PATCH", "/settings", R"({"tokenTtlSeconds":172800,"rawEventRetentionDays":1})"),
      "400 invalid_field rawEventRetentionDays");
  settings.rows["rawEventRetentionDays"] = "1";
  EXPECT_EQ(refusal("PATCH", "/settings", R"({"tokenTtlSeconds":90000})"),
            "400 invalid_field tokenTtlSeconds");
  settings.rows = before;
  EXPECT_EQ(refusal("PATCH", "/settings", R"({"publicOrigin":"https://x.example"})"),
            "400 invalid_field publicOrigin");
  EXPECT_EQ(refusal("PATCH", "/settings", R"({"allowedClientOrigins":["https://a.example/"]})"),
            "400 invalid_field allowedClientOrigins[0]");
  EXPECT_EQ(refusal("PATCH", "/settings", R"({"refreshIntervalSeconds":59})"),
            "400 invalid_field refreshIntervalSeconds");
  EXPECT_EQ(refusal("PATCH", "/settings", R"({"colour":1})"), "400 invalid_field colour");
  EXPECT_EQ(settings.rows, before);
  EXPECT_TRUE(tx.audits.empty());
  EXPECT_EQ(tx.bumps, 0);
}

TEST_F(CatalogAdminHandlers, CountriesPutWritesOnlyChangesAndCountsDuplicatesOnce) {
  const auto r = call("PUT", "/countries", R"({"countries":["GB","DE","GB"]})");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(countries.writes, (std::vector<std::string>{"FR", "GB"}));
  ASSERT_EQ(tx.audits.size(), 1U);
  EXPECT_EQ(tx.audits[0].before_json, R"({"countries":["DE","FR"]})");
  EXPECT_EQ(tx.audits[0].after_json, R"({"countries":["DE","GB"]})");
  EXPECT_EQ(tx.bumps, 1);
  EXPECT_NE(r.body.find(R"({"code":"GB","name":"United Kingdom","selected":true})"),
            std::string::npos);
}

TEST_F(CatalogAdminHandlers, CountriesPutRefusesUnknownCodesByIndex) {
  EXPECT_EQ(refusal("PUT", "/countries", R"({"countries":["DE","IT"]})"),
            "400 invalid_field countries[1]");
  EXPECT_EQ(refusal("PUT", "/countries", R"({"countries":["de"]})"),
            "400 invalid_field countries[0]");
  EXPECT_EQ(refusal("PUT", "/countries", R"({})"), "400 missing_field countries");
  EXPECT_TRUE(countries.writes.empty());
  EXPECT_TRUE(tx.audits.empty());
}

TEST_F(CatalogAdminHandlers, CategoryCreateNeedsItsParentAndAFreePath) {
  EXPECT_EQ(refusal("POST", "/categories", R"({"path":"tech.audio","name":"Audio"})"),
            "400 invalid_field path");
  const auto top = call("POST", "/categories", R"({"path":"tech","name":"Tech","icon":"plug"})");
  EXPECT_EQ(top.status, 201);
  EXPECT_EQ(top.header("Location"), "/admin/api/v1/categories/tech");
  EXPECT_EQ(top.body,
            R"({"path":"tech","name":"Tech","icon":"plug","displayOrder":0,"enabled":true,)"
            R"("effectivelyEnabled":true,"offerCount":0})");
  EXPECT_EQ(call("POST", "/categories", R"({"path":"tech.audio","name":"Audio"})").status, 201);
  EXPECT_EQ(categories.parents["tech"], std::nullopt);
  EXPECT_EQ(categories.parents["tech.audio"], categories.rows["tech"].id);
  EXPECT_EQ(refusal("POST", "/categories", R"({"path":"tech","name":"Again"})"),
            "409 conflict path");
  ASSERT_EQ(tx.audits.size(), 2U);
  EXPECT_EQ(tx.audits[0].action, "category.create");
  EXPECT_EQ(tx.audits[0].resource, "category:tech");
  EXPECT_EQ(tx.audits[0].before_json, "");
  EXPECT_EQ(tx.audits[0].after_json, top.body);
  EXPECT_EQ(tx.bumps, 2);
}

TEST_F(CatalogAdminHandlers, CategoryDeleteRefusedWhileItHoldsChildrenOrOffers) {
  call("POST", "/categories", R"({"path":"tech","name":"Tech"})");
  call("POST", "/categories", R"({"path":"tech.audio","name":"Audio"})");
  const auto audits = tx.audits.size();
  EXPECT_EQ(refusal("DELETE", "/categories/tech", ""), "409 conflict ");
  categories.rows["tech.audio"].offer_count = 2;
  EXPECT_EQ(refusal("DELETE", "/categories/tech.audio", ""), "409 conflict ");
  EXPECT_EQ(tx.audits.size(), audits);
  categories.rows["tech.audio"].offer_count = 0;
  EXPECT_EQ(call("DELETE", "/categories/tech.audio").status, 204);
  EXPECT_EQ(tx.audits.back().action, "category.delete");
  EXPECT_EQ(tx.audits.back().after_json, "");
  EXPECT_EQ(refusal("DELETE", "/categories/tech.audio", ""), "404 not_found ");
  EXPECT_EQ(refusal("PATCH", "/categories/tech", R"({"path":"other"})"), "400 invalid_field path");
}

TEST_F(CatalogAdminHandlers, PlacementUpdateAuditsBeforeAndAfter) {
  const auto r = call("PATCH", "/placements/sidebar", R"({"maxOffers":5})");
  EXPECT_EQ(r.body, R"({"name":"sidebar","maxOffers":5,"enabled":true})");
  ASSERT_EQ(tx.audits.size(), 1U);
  EXPECT_EQ(tx.audits[0].before_json, R"({"name":"sidebar","maxOffers":3,"enabled":true})");
  EXPECT_EQ(tx.audits[0].after_json, r.body);
  EXPECT_EQ(tx.bumps, 1);
  EXPECT_EQ(refusal("PATCH", "/placements/nosuch", R"({"maxOffers":5})"), "404 not_found ");
  EXPECT_EQ(refusal("POST", "/placements", R"({"name":"sidebar","maxOffers":2})"),
            "409 conflict name");
  EXPECT_EQ(refusal("POST", "/placements", R"({"name":"Side","maxOffers":2})"),
            "400 invalid_field name");
  EXPECT_EQ(placements.rows.size(), 1U);
}

TEST_F(CatalogAdminHandlers, WritesWithoutTheServiceMarkAreRefusedFirst) {
  Request r;
  r.method = "PATCH";
  r.path = "/admin/api/v1/placements/sidebar";
  r.headers = {{"host", "admin.test"}, {"origin", "http://admin.test"}};
  r.body = R"({"maxOffers":9})";
  try {
    router.dispatch(r);
    FAIL() << "answered";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.code(), "csrf_check_failed");
  }
  EXPECT_EQ(placements.rows["sidebar"].max_offers, 3);
}

}  // namespace
