#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace placard::catalog {

// Rows as read from the database, before the snapshot is built from them.
struct CountryRow {
  std::string code;
  bool selected = false;
};

struct CategoryRow {
  std::uint32_t id = 0;
  std::string path;
  std::optional<std::uint32_t> parent_id;
  std::string name;
  std::string icon;
  int display_order = 0;
  bool enabled = true;
};

struct PlacementRow {
  std::string name;
  int max_offers = 1;
  bool enabled = true;
};

struct OfferRow {
  std::uint64_t id = 0;
  std::string title;
  std::optional<std::string> description;
  std::optional<std::string> merchant;
  std::optional<std::string> image_url;
  std::optional<std::string> coupon_code;
  std::uint32_t category_id = 0;
  int priority = 0;
  bool enabled = true;
  bool is_demo = false;
  std::optional<std::int64_t> valid_from;   // unix seconds
  std::optional<std::int64_t> valid_until;  // unix seconds
  std::string countries;                    // comma-separated codes, e.g. "DE,FR"
  bool all_countries = false;               // every selected country (countries is ignored)
};

struct ClickTargetRow {
  std::uint64_t id = 0;
  bool enabled = false;
  std::string network;  // manual | admitad | awin
  std::optional<std::string> tracking_url;
  std::optional<std::int64_t> valid_from;   // unix seconds
  std::optional<std::int64_t> valid_until;  // unix seconds
};

// Everything but the offers, which are streamed into the builder one by one.
struct CatalogBase {
  std::uint64_t version = 0;
  std::map<std::string, std::string> settings;
  std::vector<CountryRow> countries;
  std::vector<CategoryRow> categories;
  std::vector<PlacementRow> placements;
  // Every offer that is not a demonstration record, in any state (disabled, expired): a click
  // with a bad token is judged against them (404 or 400), and an ignored click (HEAD, prefetch,
  // crawler) answered, without a database read.
  std::vector<ClickTargetRow> click_targets;
};

}  // namespace placard::catalog
