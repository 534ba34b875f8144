#include "lib/db/runtime_grants.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace placard::db {

namespace {

// "GRANT <privileges> ON <on> TO <who>" or "REVOKE <privileges> ON <on> FROM <who>".
std::string statement(std::string_view verb, const std::string& privileges, const std::string& on,
                      std::string_view to_or_from, const std::string& who) {
  std::string s(verb);
  s += ' ';
  s += privileges;
  s += " ON ";
  s += on;
  s += ' ';
  s += to_or_from;
  s += ' ';
  s += who;
  return s;
}

std::string quoted(const std::string& s, char q) {
  std::string out(1, q);
  for (const char c : s) {
    if (c == q) out.push_back(q);                     // '' and `` inside quotes
    if (c == '\\' && q == '\'') out.push_back('\\');  // backslash escapes only in strings
    out.push_back(c);
  }
  out.push_back(q);
  return out;
}

std::string identifier(const std::string& name) {
  return quoted(name, '`');
}

std::string joined(const std::set<std::string>& privileges) {
  // A fixed order, so that the statements are the same from run to run.
  static const std::vector<std::string> order{"SELECT", "INSERT", "UPDATE", "DELETE"};
  std::string out;
  for (const auto& p : order) {
    if (privileges.count(p) != 0) out += (out.empty() ? "" : ", ") + p;
  }
  for (const auto& p : privileges) {
    if (std::find(order.begin(), order.end(), p) == order.end())
      out += (out.empty() ? "" : ", ") + p;
  }
  return out;
}

// The name information_schema.SCHEMA_PRIVILEGES shows for a database granted by name: '_' and
// '%' escaped, since GRANT treats them as wildcards.
std::string escaped_schema(const std::string& database) {
  std::string out;
  for (const char c : database) {
    if (c == '_' || c == '%') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::set<std::string> runtime_privileges(const std::string& table) {
  // Only what the worker's statements need (issue 22, item 13; docs/hardening.md says what is
  // left and why). A table not named here (a new one) gets all four until it is.
  static const std::map<std::string, std::set<std::string>> kNarrower{
      {"audit_log", {"SELECT", "INSERT"}},            // added, never changed or removed
      {"schema_migrations", {"SELECT"}},              // placardctl migrate's
      {"catalog_version", {"SELECT", "UPDATE"}},      // its one row is bumped
      {"rollup_progress", {"SELECT", "UPDATE"}},      // rows made by migrations, moved on
      {"countries", {"SELECT", "UPDATE"}},            // the list is the migrations'; `selected` set
      {"settings", {"SELECT", "INSERT", "UPDATE"}},   // written by name, never removed
      {"sync_runs", {"SELECT", "INSERT", "UPDATE"}},  // the run history is kept
      {"network_categories", {"SELECT", "INSERT", "UPDATE"}},  // seen categories are kept
      {"ignored_events", {"SELECT", "INSERT", "DELETE"}},      // written once, removed by retention
      {"rollup_spans", {"SELECT", "INSERT", "DELETE"}},        // written once, removed when checked
  };
  const auto it = kNarrower.find(table);
  if (it != kNarrower.end()) return it->second;
  return {"SELECT", "INSERT", "UPDATE", "DELETE"};
}

std::string account_name(const std::string& user, const std::string& host) {
  return quoted(user, '\'') + "@" + quoted(host, '\'');
}

std::vector<std::string> plan_runtime_grants(const std::string& database, const std::string& user,
                                             const std::string& host,
                                             const CurrentGrants& current) {
  const std::string who = account_name(user, host);
  const std::string db = identifier(database);
  std::vector<std::string> grants;
  std::vector<std::string> revokes;
  for (const auto& table : current.tables) {
    const auto wanted = runtime_privileges(table);
    const auto it = current.by_table.find(table);
    const std::set<std::string> held =
        it == current.by_table.end() ? std::set<std::string>{} : it->second;
    std::set<std::string> missing;
    std::set<std::string> extra;
    for (const auto& p : wanted) {
      if (held.count(p) == 0) missing.insert(p);
    }
    for (const auto& p : held) {
      if (wanted.count(p) == 0) extra.insert(p);
    }
    const std::string on = db + "." + identifier(table);
    if (!missing.empty()) grants.push_back(statement("GRANT", joined(missing), on, "TO", who));
    if (!extra.empty()) revokes.push_back(statement("REVOKE", joined(extra), on, "FROM", who));
  }
  // Table grants left on tables that are gone would come back with a table of that name.
  for (const auto& [table, held] : current.by_table) {
    if (std::find(current.tables.begin(), current.tables.end(), table) == current.tables.end() &&
        !held.empty()) {
      revokes.push_back(
          statement("REVOKE", joined(held), db + "." + identifier(table), "FROM", who));
    }
  }
  std::vector<std::string> out = grants;
  if (!current.database_wide.empty()) {
    out.push_back(statement("REVOKE", "ALL PRIVILEGES", db + ".*", "FROM", who));
  }
  out.insert(out.end(), revokes.begin(), revokes.end());
  return out;
}

CurrentGrants read_grants(MysqlSession& admin, const std::string& database, const std::string& user,
                          const std::string& host) {
  CurrentGrants g;
  const std::string grantee = account_name(user, host);
  {
    auto& st = admin.prepared(
        "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND "
        "TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME");
    st.setString(1, database);
    const auto rs = query(st);
    while (rs->next()) g.tables.push_back(rs->getString(1).asStdString());
  }
  {
    auto& st = admin.prepared(
        "SELECT TABLE_NAME, PRIVILEGE_TYPE FROM information_schema.TABLE_PRIVILEGES WHERE "
        "GRANTEE = ? AND TABLE_SCHEMA = ?");
    st.setString(1, grantee);
    st.setString(2, database);
    const auto rs = query(st);
    while (rs->next()) {
      g.by_table[rs->getString(1).asStdString()].insert(rs->getString(2).asStdString());
    }
  }
  {
    auto& st = admin.prepared(
        "SELECT PRIVILEGE_TYPE FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = ? AND "
        "TABLE_SCHEMA IN (?, ?)");
    st.setString(1, grantee);
    st.setString(2, database);
    st.setString(3, escaped_schema(database));
    const auto rs = query(st);
    while (rs->next()) g.database_wide.insert(rs->getString(1).asStdString());
  }
  if (g.tables.empty()) {
    throw std::runtime_error("the database " + database + " has no tables (run migrate first)");
  }
  return g;
}

}  // namespace placard::db
