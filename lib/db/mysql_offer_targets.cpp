#include "lib/db/mysql_offer_targets.h"

namespace placard::db {

std::optional<OfferTarget> MysqlOfferTargets::find(std::uint64_t offer_id) {
  return session_.run(true, [&](MysqlSession& s) -> std::optional<OfferTarget> {
    auto& st = s.prepared(
        "SELECT id, enabled, is_demo, network, tracking_url, UNIX_TIMESTAMP(valid_from), "
        "UNIX_TIMESTAMP(valid_until) FROM offers WHERE id = ?");
    st.setUInt64(1, offer_id);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    OfferTarget t;
    t.id = rs->getUInt64(1);
    t.enabled = rs->getBoolean(2);
    t.is_demo = rs->getBoolean(3);
    t.network = rs->getString(4).asStdString();
    if (!rs->isNull(5)) t.tracking_url = rs->getString(5).asStdString();
    if (!rs->isNull(6)) t.valid_from = rs->getInt64(6);
    if (!rs->isNull(7)) t.valid_until = rs->getInt64(7);
    return t;
  });
}

}  // namespace placard::db
