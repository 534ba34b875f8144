#pragma once
// Admin stores a handler test does not exercise: every call fails the test loudly, so a handler
// that reaches for the wrong store is caught. Add one here for each new admin store.
#include <stdexcept>

#include "lib/stats/stats_store.h"
#include "lib/store/audit_store.h"
#include "lib/store/catalog_admin_store.h"
#include "lib/store/network_store.h"
#include "lib/store/offer_admin_store.h"
#include "lib/store/settings_store.h"

namespace placard::testing {

[[noreturn]] inline void unused_store(const char* what) {
  throw std::logic_error(std::string("this test does not expect a call to ") + what);
}

class UnusedOffers : public db::OfferAdminStore {
 public:
  std::optional<db::AdminOffer> find(std::uint64_t, bool) override { unused_store("offers"); }
  db::OfferPage list(const db::OfferFilter&, int, std::uint64_t) override {
    unused_store("offers");
  }
  std::optional<std::uint64_t> category_id(const std::string&) override { unused_store("offers"); }
  bool country_exists(const std::string&) override { unused_store("offers"); }
  std::uint64_t insert(const db::NewOffer&) override { unused_store("offers"); }
  void update(std::uint64_t, const db::OfferChanges&) override { unused_store("offers"); }
};

class UnusedAudit : public db::AuditStore {
 public:
  std::optional<db::AuditEntry> find(std::uint64_t) override { unused_store("audit"); }
  db::AuditPage list(const db::AuditFilter&, int, std::uint64_t) override { unused_store("audit"); }
};

class UnusedStats : public db::StatsStore {
 public:
  db::StatsReport report(db::StatsGroup, std::int64_t, std::int64_t, std::size_t) override {
    unused_store("stats");
  }
};

class UnusedNetwork : public db::NetworkStore {
 public:
  std::optional<network::StoredCredentials> credentials(const std::string&) override {
    unused_store("network");
  }
  void put_credentials(const std::string&, const network::StoredCredentials&,
                       std::uint64_t) override {
    unused_store("network");
  }
  bool delete_credentials(const std::string&) override { unused_store("network"); }
  std::optional<db::SyncRunRow> last_sync(const std::string&) override { unused_store("network"); }
  std::optional<db::SyncRunRow> find_sync(std::uint64_t) override { unused_store("network"); }
  db::SyncRunPage list_syncs(const std::optional<std::string>&, int, std::uint64_t) override {
    unused_store("network");
  }
  db::NetworkCategoryPage list_categories(const std::optional<std::string>&, int,
                                          std::uint64_t) override {
    unused_store("network");
  }
  std::optional<db::NetworkCategory> find_category(const std::string&,
                                                   const std::string&) override {
    unused_store("network");
  }
  std::optional<std::uint32_t> category_id(const std::string&) override { unused_store("network"); }
  void map_category(const std::string&, const std::string&, std::optional<std::uint32_t>) override {
    unused_store("network");
  }
};

class UnusedSettings : public db::SettingsStore {
 public:
  std::map<std::string, std::string> read_all(bool) override { unused_store("settings"); }
  void write(const std::string&, const std::string&) override { unused_store("settings"); }
};

class UnusedCountries : public db::CountryStore {
 public:
  std::vector<db::CountryRecord> list(bool) override { unused_store("countries"); }
  void set_selected(const std::string&, bool) override { unused_store("countries"); }
};

class UnusedCategories : public db::CategoryStore {
 public:
  db::CategoryPage list(std::optional<bool>, int, std::uint64_t) override {
    unused_store("categories");
  }
  std::optional<db::CategoryRecord> find(const std::string&) override {
    unused_store("categories");
  }
  std::uint32_t insert(const db::NewCategory&) override { unused_store("categories"); }
  void update(std::uint32_t, const db::CategoryChange&) override { unused_store("categories"); }
  void remove(std::uint32_t) override { unused_store("categories"); }
};

class UnusedPlacements : public db::PlacementStore {
 public:
  db::PlacementPage list(std::optional<bool>, int, std::uint64_t) override {
    unused_store("placements");
  }
  std::optional<db::PlacementRecord> find(const std::string&) override {
    unused_store("placements");
  }
  void insert(const db::PlacementRecord&) override { unused_store("placements"); }
  void update(const std::string&, const db::PlacementChange&) override {
    unused_store("placements");
  }
  void remove(const std::string&) override { unused_store("placements"); }
};

}  // namespace placard::testing
