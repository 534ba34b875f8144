#include "lib/store/mysql_catalog_admin_store.h"

#include "lib/db/paged_query.h"

namespace placard::db {

namespace {

// effectively enabled: enabled, and no disabled category is an ancestor (a path prefix up to a
// dot: every ancestor exists, since a category's parent must exist).
constexpr const char* kCategorySelect =
    "SELECT c.id, c.path, c.name, c.icon, c.display_order, c.enabled, "
    "c.enabled AND NOT EXISTS (SELECT 1 FROM categories a WHERE a.enabled = 0 "
    "AND c.path LIKE CONCAT(a.path, '.%')), "
    "(SELECT COUNT(*) FROM offers o WHERE o.category_id = c.id), "
    "(SELECT COUNT(*) FROM categories k WHERE k.parent_id = c.id) "
    "FROM categories c";

CategoryRecord read_category(sql::ResultSet& rs) {
  CategoryRecord c;
  c.id = rs.getUInt(1);
  c.path = rs.getString(2).asStdString();
  c.name = rs.getString(3).asStdString();
  c.icon = rs.getString(4).asStdString();
  c.display_order = rs.getInt(5);
  c.enabled = rs.getBoolean(6);
  c.effectively_enabled = rs.getBoolean(7);
  c.offer_count = rs.getUInt64(8);
  c.child_count = rs.getUInt64(9);
  return c;
}

}  // namespace

CategoryPage MysqlCategoryStore::list(std::optional<bool> enabled, int limit,
                                      std::uint64_t offset) {
  return db_.call([&](MysqlSession& s) {
    SqlArgs args;
    if (enabled) args.add(*enabled);
    const std::string where = enabled ? " WHERE c.enabled = ?" : "";
    return read_page<CategoryPage>(s, "SELECT COUNT(*) FROM categories c" + where,
                                   kCategorySelect + where + " ORDER BY c.path", args, limit,
                                   offset, [](sql::ResultSet& rs) { return read_category(rs); });
  });
}

std::optional<CategoryRecord> MysqlCategoryStore::find(const std::string& path) {
  return db_.call([&](MysqlSession& s) -> std::optional<CategoryRecord> {
    auto& st = s.prepared(std::string(kCategorySelect) + " WHERE c.path = ?");
    st.setString(1, path);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_category(*rs);
  });
}

std::uint32_t MysqlCategoryStore::insert(const NewCategory& c) {
  return db_.call([&](MysqlSession& s) -> std::uint32_t {
    auto& st = s.prepared(
        "INSERT INTO categories (path, parent_id, name, icon, display_order, enabled) "
        "VALUES (?, ?, ?, ?, ?, ?)");
    st.setString(1, c.path);
    if (c.parent_id) {
      st.setUInt(2, *c.parent_id);
    } else {
      st.setNull(2, sql::DataType::INTEGER);
    }
    st.setString(3, c.name);
    st.setString(4, c.icon);
    st.setInt(5, c.display_order);
    st.setBoolean(6, c.enabled);
    st.executeUpdate();
    const auto rs = query(s.prepared("SELECT LAST_INSERT_ID()"));
    return rs->next() ? rs->getUInt(1) : 0;
  });
}

void MysqlCategoryStore::update(std::uint32_t id, const CategoryChange& change) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "UPDATE categories SET name = COALESCE(?, name), icon = COALESCE(?, icon), "
        "display_order = COALESCE(?, display_order), enabled = COALESCE(?, enabled), "
        "updated_at = UTC_TIMESTAMP() WHERE id = ?");
    if (change.name) {
      st.setString(1, *change.name);
    } else {
      st.setNull(1, sql::DataType::VARCHAR);
    }
    if (change.icon) {
      st.setString(2, *change.icon);
    } else {
      st.setNull(2, sql::DataType::VARCHAR);
    }
    if (change.display_order) {
      st.setInt(3, *change.display_order);
    } else {
      st.setNull(3, sql::DataType::INTEGER);
    }
    if (change.enabled) {
      st.setBoolean(4, *change.enabled);
    } else {
      st.setNull(4, sql::DataType::TINYINT);
    }
    st.setUInt(5, id);
    st.executeUpdate();
  });
}

void MysqlCategoryStore::remove(std::uint32_t id) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("DELETE FROM categories WHERE id = ?");
    st.setUInt(1, id);
    st.executeUpdate();
  });
}

}  // namespace placard::db
