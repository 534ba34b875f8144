#pragma once
#include "lib/db/admin_db.h"
#include "lib/store/catalog_admin_store.h"

namespace placard::db {

// mysql_country_store.cpp
class MysqlCountryStore : public CountryStore {
 public:
  explicit MysqlCountryStore(AdminDb& db) : db_(db) {}
  std::vector<CountryRecord> list(bool lock) override;
  void set_selected(const std::string& code, bool selected) override;

 private:
  AdminDb& db_;
};

// mysql_category_store.cpp
class MysqlCategoryStore : public CategoryStore {
 public:
  explicit MysqlCategoryStore(AdminDb& db) : db_(db) {}
  CategoryPage list(std::optional<bool> enabled, int limit, std::uint64_t offset) override;
  std::optional<CategoryRecord> find(const std::string& path) override;
  std::uint32_t insert(const NewCategory& category) override;
  void update(std::uint32_t id, const CategoryChange& change) override;
  void remove(std::uint32_t id) override;

 private:
  AdminDb& db_;
};

// mysql_placement_store.cpp
class MysqlPlacementStore : public PlacementStore {
 public:
  explicit MysqlPlacementStore(AdminDb& db) : db_(db) {}
  PlacementPage list(std::optional<bool> enabled, int limit, std::uint64_t offset) override;
  std::optional<PlacementRecord> find(const std::string& name) override;
  void insert(const PlacementRecord& placement) override;
  void update(const std::string& name, const PlacementChange& change) override;
  void remove(const std::string& name) override;

 private:
  AdminDb& db_;
};

}  // namespace placard::db
