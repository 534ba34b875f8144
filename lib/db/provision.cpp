#include "lib/db/provision.h"

#include <memory>
#include <stdexcept>

namespace placard::db {

namespace {

bool only(const std::string& s, const std::string& extra) {
  if (s.empty() || s.size() > 80) return false;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || extra.find(c) != std::string::npos;
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string sql_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'' || c == '\\') out.push_back('\\');
    if (c == '\0') {
      out += "\\0";
      continue;
    }
    out.push_back(c);
  }
  return out + "'";
}

void create_database(MysqlSession& admin, const std::string& name) {
  if (!only(name, "")) throw std::invalid_argument("database name must be [A-Za-z0-9_]+");
  admin.execute("CREATE DATABASE IF NOT EXISTS `" + name +
                "` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
}

void ensure_user(MysqlSession& admin, const std::string& user, const std::string& host,
                 const std::string& password) {
  if (!only(user, ".-")) throw std::invalid_argument("database user must be [A-Za-z0-9_.-]+");
  if (!only(host, ".-%:")) throw std::invalid_argument("database host must be [A-Za-z0-9_.-%:]+");
  const std::string account = sql_quote(user) + "@" + sql_quote(host);
  admin.execute("CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY " + sql_quote(password));
  admin.execute("ALTER USER " + account + " IDENTIFIED BY " + sql_quote(password));
}

bool account_exists(MysqlSession& session, const std::string& email) {
  auto& st = session.prepared("SELECT 1 FROM accounts WHERE email = ?");
  st.setString(1, email);
  const std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next();
}

}  // namespace placard::db
