#include "lib/store/mysql_catalog_admin_store.h"

#include "lib/db/paged_query.h"

namespace placard::db {

namespace {
PlacementRecord read_placement(sql::ResultSet& rs) {
  return {rs.getString(1).asStdString(), rs.getInt(2), rs.getBoolean(3)};
}
}  // namespace

PlacementPage MysqlPlacementStore::list(std::optional<bool> enabled, int limit,
                                        std::uint64_t offset) {
  return db_.call([&](MysqlSession& s) {
    SqlArgs args;
    if (enabled) args.add(*enabled);
    const std::string where = enabled ? " WHERE enabled = ?" : "";
    return read_page<PlacementPage>(
        s, "SELECT COUNT(*) FROM placements" + where,
        "SELECT name, max_offers, enabled FROM placements" + where + " ORDER BY name", args, limit,
        offset, [](sql::ResultSet& rs) { return read_placement(rs); });
  });
}

std::optional<PlacementRecord> MysqlPlacementStore::find(const std::string& name) {
  return db_.call([&](MysqlSession& s) -> std::optional<PlacementRecord> {
    auto& st = s.prepared("SELECT name, max_offers, enabled FROM placements WHERE name = ?");
    st.setString(1, name);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_placement(*rs);
  });
}

void MysqlPlacementStore::insert(const PlacementRecord& p) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("INSERT INTO placements (name, max_offers, enabled) VALUES (?, ?, ?)");
    st.setString(1, p.name);
    st.setInt(2, p.max_offers);
    st.setBoolean(3, p.enabled);
    st.executeUpdate();
  });
}

void MysqlPlacementStore::update(const std::string& name, const PlacementChange& change) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "UPDATE placements SET max_offers = COALESCE(?, max_offers), "
        "enabled = COALESCE(?, enabled), updated_at = UTC_TIMESTAMP() WHERE name = ?");
    if (change.max_offers) {
      st.setInt(1, *change.max_offers);
    } else {
      st.setNull(1, sql::DataType::INTEGER);
    }
    if (change.enabled) {
      st.setBoolean(2, *change.enabled);
    } else {
      st.setNull(2, sql::DataType::TINYINT);
    }
    st.setString(3, name);
    st.executeUpdate();
  });
}

void MysqlPlacementStore::remove(const std::string& name) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("DELETE FROM placements WHERE name = ?");
    st.setString(1, name);
    st.executeUpdate();
  });
}

}  // namespace placard::db
