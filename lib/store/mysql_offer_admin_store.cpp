#include "lib/store/mysql_offer_admin_store.h"

#include "lib/db/paged_query.h"

#include "lib/db/like_pattern.h"
#include "lib/db/sql_args.h"

namespace placard::db {

namespace {

// Times are read as seconds since the epoch with TIMESTAMPDIFF from 1970-01-01 (the DATETIMEs
// hold UTC), not with UNIX_TIMESTAMP(), which depends on the session's time zone and gives NULL
// after 2038 on MariaDB 10.
constexpr const char* kOfferColumns =
    "o.id, o.network, o.external_id, o.title, o.description, o.merchant, o.image_url, "
    "o.coupon_code, c.path, "
    "(SELECT GROUP_CONCAT(oc.country_code ORDER BY oc.country_code SEPARATOR ',') "
    "FROM offer_countries oc WHERE oc.offer_id = o.id), "
    "o.priority, o.enabled, o.is_demo, o.tracking_url, "
    "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', o.valid_from), "
    "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', o.valid_until), "
    "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', o.created_at), "
    "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', o.updated_at), "
    "o.overrides, o.all_countries "
    "FROM offers o LEFT JOIN categories c ON c.id = o.category_id";

// The public query can return the offer now (contract section 3): enabled, inside its validity
// window, a category (an unmapped import has none) with every ancestor enabled, available in at
// least one selected country (all_countries: any selected country).
constexpr const char* kServed =
    "(o.enabled = 1 AND o.category_id IS NOT NULL "
    "AND (o.valid_from IS NULL OR o.valid_from <= UTC_TIMESTAMP()) "
    "AND (o.valid_until IS NULL OR o.valid_until > UTC_TIMESTAMP()) "
    "AND NOT EXISTS (SELECT 1 FROM categories a WHERE a.enabled = 0 "
    "AND (a.path = c.path OR c.path LIKE CONCAT(a.path, '.%'))) "
    "AND ((o.all_countries = 1 AND EXISTS (SELECT 1 FROM countries anysel WHERE anysel.selected = "
    "1)) "
    "OR EXISTS (SELECT 1 FROM offer_countries sc JOIN countries sel ON sel.code = sc.country_code "
    "WHERE sc.offer_id = o.id AND sel.selected = 1)))";

std::optional<std::string> opt_string(sql::ResultSet& rs, int i) {
  if (rs.isNull(i)) return std::nullopt;
  return rs.getString(i).asStdString();
}

std::optional<std::int64_t> opt_int(sql::ResultSet& rs, int i) {
  if (rs.isNull(i)) return std::nullopt;
  return rs.getInt64(i);
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto comma = text.find(',', start);
    const auto end = comma == std::string::npos ? text.size() : comma;
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out.push_back(',');
    out += s;
  }
  return out;
}

AdminOffer read_offer(sql::ResultSet& rs) {
  AdminOffer o;
  o.id = rs.getUInt64(1);
  o.network = rs.getString(2).asStdString();
  o.external_id = opt_string(rs, 3);
  o.title = rs.getString(4).asStdString();
  o.description = opt_string(rs, 5);
  o.merchant = opt_string(rs, 6);
  o.image_url = opt_string(rs, 7);
  o.coupon_code = opt_string(rs, 8);
  o.category = opt_string(rs, 9);
  if (!rs.isNull(10)) o.countries = split_list(rs.getString(10).asStdString());
  o.priority = rs.getInt(11);
  o.enabled = rs.getBoolean(12);
  o.is_demo = rs.getBoolean(13);
  o.tracking_url = opt_string(rs, 14);
  o.valid_from = opt_int(rs, 15);
  o.valid_until = opt_int(rs, 16);
  o.created_at = rs.getInt64(17);
  o.updated_at = rs.getInt64(18);
  o.overrides = split_list(rs.getString(19).asStdString());
  o.all_countries = rs.getBoolean(20);
  return o;
}

void set_opt_string(sql::PreparedStatement& st, unsigned i, const std::optional<std::string>& v) {
  if (v) {
    st.setString(i, *v);
  } else {
    st.setNull(i, sql::DataType::VARCHAR);
  }
}

void set_opt_time(sql::PreparedStatement& st, unsigned i, const std::optional<std::int64_t>& v) {
  if (v) {
    st.setString(i, to_sql_datetime(*v));
  } else {
    st.setNull(i, sql::DataType::TIMESTAMP);
  }
}

void insert_countries(MysqlSession& s, std::uint64_t id, const std::vector<std::string>& codes) {
  auto& st = s.prepared("INSERT INTO offer_countries (offer_id, country_code) VALUES (?, ?)");
  for (const auto& code : codes) {
    st.setUInt64(1, id);
    st.setString(2, code);
    st.executeUpdate();
  }
}

// " WHERE ..." for the filter (empty when it has none), its parameters into args.
std::string where_clause(const OfferFilter& f, SqlArgs& args) {
  std::vector<std::string> parts;
  if (f.q) {
    parts.emplace_back("(o.title LIKE ? ESCAPE '!' OR o.merchant LIKE ? ESCAPE '!')");
    args.add(like_contains(*f.q));
    args.add(like_contains(*f.q));
  }
  if (f.category) {
    parts.emplace_back("(c.path = ? OR c.path LIKE ? ESCAPE '!')");
    args.add(*f.category);
    args.add(like_prefix(*f.category + "."));
  }
  if (f.country) {
    parts.emplace_back(
        "(EXISTS (SELECT 1 FROM offer_countries fc WHERE fc.offer_id = o.id AND "
        "fc.country_code = ?) OR (o.all_countries = 1 AND EXISTS (SELECT 1 FROM countries fs "
        "WHERE fs.code = ? AND fs.selected = 1)))");
    args.add(*f.country);
    args.add(*f.country);
  }
  if (f.network) {
    parts.emplace_back("o.network = ?");
    args.add(*f.network);
  }
  if (f.enabled) {
    parts.emplace_back("o.enabled = ?");
    args.add(*f.enabled);
  }
  if (f.is_demo) {
    parts.emplace_back("o.is_demo = ?");
    args.add(*f.is_demo);
  }
  if (f.served)
    parts.emplace_back(*f.served ? std::string(kServed) : "NOT " + std::string(kServed));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? " WHERE " : " AND ") + p;
  return out;
}

}  // namespace

std::optional<AdminOffer> MysqlOfferAdminStore::find(std::uint64_t id, bool for_update) {
  return db_.call([&](MysqlSession& s) -> std::optional<AdminOffer> {
    if (for_update) {
      auto& lock = s.prepared("SELECT id FROM offers WHERE id = ? FOR UPDATE");
      lock.setUInt64(1, id);
      if (!query(lock)->next()) return std::nullopt;
    }
    auto& st = s.prepared(std::string("SELECT ") + kOfferColumns + " WHERE o.id = ?");
    st.setUInt64(1, id);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_offer(*rs);
  });
}

OfferPage MysqlOfferAdminStore::list(const OfferFilter& filter, int limit, std::uint64_t offset) {
  return db_.call([&](MysqlSession& s) {
    SqlArgs args;
    const std::string where = where_clause(filter, args);
    return read_page<OfferPage>(
        s, "SELECT COUNT(*) FROM offers o LEFT JOIN categories c ON c.id = o.category_id" + where,
        std::string("SELECT ") + kOfferColumns + where + " ORDER BY o.id", args, limit, offset,
        [](sql::ResultSet& rs) { return read_offer(rs); });
  });
}

std::optional<std::uint64_t> MysqlOfferAdminStore::category_id(const std::string& path) {
  return db_.call([&](MysqlSession& s) -> std::optional<std::uint64_t> {
    auto& st = s.prepared("SELECT id FROM categories WHERE path = ?");
    st.setString(1, path);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return rs->getUInt64(1);
  });
}

bool MysqlOfferAdminStore::country_exists(const std::string& code) {
  return db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("SELECT 1 FROM countries WHERE code = ?");
    st.setString(1, code);
    return query(st)->next();
  });
}

std::uint64_t MysqlOfferAdminStore::insert(const NewOffer& o) {
  return db_.call([&](MysqlSession& s) -> std::uint64_t {
    auto& st = s.prepared(
        "INSERT INTO offers (network, title, description, merchant, image_url, coupon_code, "
        "category_id, priority, enabled, is_demo, tracking_url, valid_from, valid_until, "
        "created_at, updated_at) VALUES ('manual', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "UTC_TIMESTAMP(), UTC_TIMESTAMP())");
    st.setString(1, o.title);
    set_opt_string(st, 2, o.description);
    set_opt_string(st, 3, o.merchant);
    set_opt_string(st, 4, o.image_url);
    set_opt_string(st, 5, o.coupon_code);
    st.setUInt64(6, o.category_id);
    st.setInt(7, o.priority);
    st.setBoolean(8, o.enabled);
    st.setBoolean(9, o.is_demo);
    set_opt_string(st, 10, o.tracking_url);
    set_opt_time(st, 11, o.valid_from);
    set_opt_time(st, 12, o.valid_until);
    st.executeUpdate();
    std::uint64_t id = 0;
    {
      const auto rs = query(s.prepared("SELECT LAST_INSERT_ID()"));
      if (rs->next()) id = rs->getUInt64(1);
    }
    insert_countries(s, id, o.countries);
    return id;
  });
}

void MysqlOfferAdminStore::update(std::uint64_t id, const OfferChanges& ch) {
  db_.call([&](MysqlSession& s) {
    // The statement's text depends only on which fields change (a bounded set of texts).
    std::string sets = "updated_at = UTC_TIMESTAMP()";
    if (ch.enabled) sets += ", enabled = ?";
    if (ch.priority) sets += ", priority = ?";
    if (ch.valid_from) sets += ", valid_from = ?";
    if (ch.valid_until) sets += ", valid_until = ?";
    if (ch.category_id) sets += ", category_id = ?";
    if (ch.is_demo) sets += ", is_demo = ?";
    if (ch.overrides) sets += ", overrides = ?";
    if (ch.countries) sets += ", all_countries = 0";
    auto& st = s.prepared("UPDATE offers SET " + sets + " WHERE id = ?");
    unsigned i = 1;
    if (ch.enabled) st.setBoolean(i++, *ch.enabled);
    if (ch.priority) st.setInt(i++, *ch.priority);
    if (ch.valid_from) set_opt_time(st, i++, *ch.valid_from);
    if (ch.valid_until) set_opt_time(st, i++, *ch.valid_until);
    if (ch.category_id) st.setUInt64(i++, *ch.category_id);
    if (ch.is_demo) st.setBoolean(i++, *ch.is_demo);
    if (ch.overrides) st.setString(i++, join_list(*ch.overrides));
    st.setUInt64(i, id);
    st.executeUpdate();
    if (ch.countries) {
      auto& del = s.prepared("DELETE FROM offer_countries WHERE offer_id = ?");
      del.setUInt64(1, id);
      del.executeUpdate();
      insert_countries(s, id, *ch.countries);
    }
  });
}

}  // namespace placard::db
