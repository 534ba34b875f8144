#pragma once
#include "lib/db/mysql_session.h"
#include "lib/db/offer_targets.h"

namespace placard::db {

class MysqlOfferTargets : public OfferTargets {
 public:
  explicit MysqlOfferTargets(MysqlSession& session) : session_(session) {}
  std::optional<OfferTarget> find(std::uint64_t offer_id) override;

 private:
  MysqlSession& session_;
};

}  // namespace placard::db
