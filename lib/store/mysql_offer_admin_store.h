#pragma once
#include "lib/db/admin_db.h"
#include "lib/store/offer_admin_store.h"

namespace placard::db {

class MysqlOfferAdminStore : public OfferAdminStore {
 public:
  explicit MysqlOfferAdminStore(AdminDb& db) : db_(db) {}

  std::optional<AdminOffer> find(std::uint64_t id, bool for_update) override;
  OfferPage list(const OfferFilter& filter, int limit, std::uint64_t offset) override;
  std::optional<std::uint64_t> category_id(const std::string& path) override;
  bool country_exists(const std::string& code) override;
  std::uint64_t insert(const NewOffer& offer) override;
  void update(std::uint64_t id, const OfferChanges& changes) override;

 private:
  AdminDb& db_;
};

}  // namespace placard::db
