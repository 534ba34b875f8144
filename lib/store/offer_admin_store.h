#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placard::db {

// What an offer says and how it is served, the same in a stored offer and in one to create.
struct OfferFields {
  std::string title;
  std::optional<std::string> description;
  std::optional<std::string> merchant;
  std::optional<std::string> image_url;
  std::optional<std::string> coupon_code;
  int priority = 0;
  bool enabled = true;
  bool is_demo = false;
  std::optional<std::string> tracking_url;
  std::optional<std::int64_t> valid_from;
  std::optional<std::int64_t> valid_until;
};

// An offer as the admin API sees it (contract 6.1). Times are Unix seconds (UTC).
struct AdminOffer : OfferFields {
  std::uint64_t id = 0;
  std::string network;  // manual | admitad | awin
  std::optional<std::string> external_id;
  std::optional<std::string> category;  // dotted path; none: imported, not mapped (not served)
  bool all_countries = false;           // every selected country (imported: Awin regions.all)
  std::vector<std::string> countries;   // sorted; empty when all_countries
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
  std::vector<std::string> overrides;  // enabled, priority, category, countries, validity
};

// The filters of GET /offers; each absent one does not filter.
struct OfferFilter {
  std::optional<std::string> q;         // substring of title or merchant, case-insensitive
  std::optional<std::string> category;  // a path: it and its whole subtree
  std::optional<std::string> country;   // available in that country (listed, or all_countries
                                        // and the country is selected)
  std::optional<std::string> network;
  std::optional<bool> enabled;
  std::optional<bool> is_demo;
  std::optional<bool> served;  // the public query can return it now
};

struct OfferPage {
  std::vector<AdminOffer> items;
  std::uint64_t total = 0;
};

// A manual or demonstration offer to create.
struct NewOffer : OfferFields {
  std::uint64_t category_id = 0;
  std::vector<std::string> countries;  // existing codes, no duplicates
};

// What an update changes; absent members stay as they are. updated_at always becomes now.
struct OfferChanges {
  std::optional<bool> enabled;
  std::optional<int> priority;
  std::optional<std::optional<std::int64_t>> valid_from;   // holding nullopt: open
  std::optional<std::optional<std::int64_t>> valid_until;  // holding nullopt: open
  std::optional<std::uint64_t> category_id;
  std::optional<std::vector<std::string>> countries;  // replaces the set (all_countries off)
  std::optional<bool> is_demo;
  std::optional<std::vector<std::string>> overrides;  // replaces the set
};

// Offers for the admin API. Writes are meant to run inside AdminTx::run.
class OfferAdminStore {
 public:
  virtual ~OfferAdminStore() = default;

  // for_update: the row stays locked until the transaction ends.
  virtual std::optional<AdminOffer> find(std::uint64_t id, bool for_update) = 0;
  // Ordered by id.
  virtual OfferPage list(const OfferFilter& filter, int limit, std::uint64_t offset) = 0;
  virtual std::optional<std::uint64_t> category_id(const std::string& path) = 0;
  virtual bool country_exists(const std::string& code) = 0;
  // A manual offer (network 'manual'); answers its id.
  virtual std::uint64_t insert(const NewOffer& offer) = 0;
  virtual void update(std::uint64_t id, const OfferChanges& changes) = 0;
};

}  // namespace placard::db
