#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placard::db {

// Repositories of the admin API's catalog resources: countries, categories, placements.
// Inside AdminTx::run their statements join the write transaction.

struct CountryRecord {
  std::string code;  // ISO 3166-1 alpha-2
  std::string name;
  bool selected = false;
};

class CountryStore {
 public:
  virtual ~CountryStore() = default;
  // Every known country, sorted by code. With `lock` (inside AdminTx::run) the rows stay locked
  // until the transaction ends, so two concurrent replacements cannot interleave.
  virtual std::vector<CountryRecord> list(bool lock) = 0;
  virtual void set_selected(const std::string& code, bool selected) = 0;
};

struct CategoryRecord {
  std::uint32_t id = 0;
  std::string path;
  std::string name;
  std::string icon;
  int display_order = 0;
  bool enabled = true;
  bool effectively_enabled = true;  // it and every ancestor enabled
  std::uint64_t offer_count = 0;    // offers whose category is this one (not its subtree)
  std::uint64_t child_count = 0;    // direct children
};

struct CategoryPage {
  std::vector<CategoryRecord> items;
  std::uint64_t total = 0;
};

struct NewCategory {
  std::string path;
  std::optional<std::uint32_t> parent_id;  // none: a top-level category
  std::string name;
  std::string icon;
  int display_order = 0;
  bool enabled = true;
};

// The fields a PATCH may change; absent ones stay.
struct CategoryChange {
  std::optional<std::string> name;
  std::optional<std::string> icon;
  std::optional<int> display_order;
  std::optional<bool> enabled;
};

class CategoryStore {
 public:
  virtual ~CategoryStore() = default;
  // Sorted by path; `enabled` filters on the category's own flag.
  virtual CategoryPage list(std::optional<bool> enabled, int limit, std::uint64_t offset) = 0;
  virtual std::optional<CategoryRecord> find(const std::string& path) = 0;
  // Throws DuplicateKey when the path exists.
  virtual std::uint32_t insert(const NewCategory& category) = 0;
  virtual void update(std::uint32_t id, const CategoryChange& change) = 0;
  // Throws ForeignKeyViolation when children or offers still refer to it.
  virtual void remove(std::uint32_t id) = 0;
};

struct PlacementRecord {
  std::string name;
  int max_offers = 1;
  bool enabled = true;
};

struct PlacementPage {
  std::vector<PlacementRecord> items;
  std::uint64_t total = 0;
};

// The fields a PATCH may change; absent ones stay.
struct PlacementChange {
  std::optional<int> max_offers;
  std::optional<bool> enabled;
};

class PlacementStore {
 public:
  virtual ~PlacementStore() = default;
  // Sorted by name; `enabled` filters.
  virtual PlacementPage list(std::optional<bool> enabled, int limit, std::uint64_t offset) = 0;
  virtual std::optional<PlacementRecord> find(const std::string& name) = 0;
  // Throws DuplicateKey when the name exists.
  virtual void insert(const PlacementRecord& placement) = 0;
  virtual void update(const std::string& name, const PlacementChange& change) = 0;
  virtual void remove(const std::string& name) = 0;
};

}  // namespace placard::db
