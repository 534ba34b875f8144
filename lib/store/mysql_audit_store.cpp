#include "lib/store/mysql_audit_store.h"

#include "lib/db/paged_query.h"

#include "lib/db/like_pattern.h"
#include "lib/db/sql_args.h"

namespace placard::db {

namespace {

constexpr const char* kAuditColumns =
    "a.id, TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', a.at), a.account_id, ac.email, a.action, "
    "a.target, a.before_json, a.after_json "
    "FROM audit_log a LEFT JOIN accounts ac ON ac.id = a.account_id";

std::optional<std::string> opt_string(sql::ResultSet& rs, int i) {
  if (rs.isNull(i)) return std::nullopt;
  return rs.getString(i).asStdString();
}

AuditEntry read_entry(sql::ResultSet& rs) {
  AuditEntry e;
  e.id = rs.getUInt64(1);
  e.at = rs.getInt64(2);
  if (!rs.isNull(3)) e.account_id = rs.getUInt64(3);
  e.account_email = opt_string(rs, 4);
  e.action = rs.getString(5).asStdString();
  e.resource = rs.getString(6).asStdString();
  e.before_json = opt_string(rs, 7);
  e.after_json = opt_string(rs, 8);
  return e;
}

std::string where_clause(const AuditFilter& f, SqlArgs& args) {
  std::vector<std::string> parts;
  if (f.account_id) {
    parts.emplace_back("a.account_id = ?");
    args.add(*f.account_id);
  }
  if (f.resource) {
    parts.emplace_back("a.target = ?");
    args.add(*f.resource);
  }
  if (f.resource_type) {
    parts.emplace_back("(a.target = ? OR a.target LIKE ? ESCAPE '!')");
    args.add(*f.resource_type);
    args.add(like_prefix(*f.resource_type + ":"));
  }
  if (f.action) {
    parts.emplace_back("a.action = ?");
    args.add(*f.action);
  }
  if (f.from) {
    parts.emplace_back("a.at >= ?");
    args.add(to_sql_datetime(*f.from));
  }
  if (f.until) {
    parts.emplace_back("a.at < ?");
    args.add(to_sql_datetime(*f.until));
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? " WHERE " : " AND ") + p;
  return out;
}

}  // namespace

std::optional<AuditEntry> MysqlAuditStore::find(std::uint64_t id) {
  return db_.call([&](MysqlSession& s) -> std::optional<AuditEntry> {
    auto& st = s.prepared(std::string("SELECT ") + kAuditColumns + " WHERE a.id = ?");
    st.setUInt64(1, id);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_entry(*rs);
  });
}

AuditPage MysqlAuditStore::list(const AuditFilter& filter, int limit, std::uint64_t offset) {
  return db_.call([&](MysqlSession& s) {
    SqlArgs args;
    const std::string where = where_clause(filter, args);
    return read_page<AuditPage>(
        s, "SELECT COUNT(*) FROM audit_log a" + where,
        std::string("SELECT ") + kAuditColumns + where + " ORDER BY a.at DESC, a.id DESC", args,
        limit, offset, [](sql::ResultSet& rs) { return read_entry(rs); });
  });
}

}  // namespace placard::db
