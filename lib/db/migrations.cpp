#include "lib/db/migrations.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "lib/db/sql_script.h"

namespace placard::db {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Releases the named lock however the migration ends.
class NamedLock {
 public:
  NamedLock(sql::Connection& conn, std::string name) : conn_(conn), name_(std::move(name)) {
    const std::unique_ptr<sql::PreparedStatement> st(
        conn_.prepareStatement("SELECT GET_LOCK(?, 30)"));
    st->setString(1, name_);
    const std::unique_ptr<sql::ResultSet> rs(st->executeQuery());
    if (!rs->next() || rs->getInt(1) != 1) {
      throw std::runtime_error("another migration holds the lock " + name_);
    }
  }
  ~NamedLock() {
    try {
      const std::unique_ptr<sql::PreparedStatement> st(
          conn_.prepareStatement("DO RELEASE_LOCK(?)"));
      st->setString(1, name_);
      st->execute();
    } catch (const sql::SQLException&) {
      // The lock dies with the connection anyway.
    }
  }
  NamedLock(const NamedLock&) = delete;
  NamedLock& operator=(const NamedLock&) = delete;

 private:
  sql::Connection& conn_;
  std::string name_;
};

}  // namespace

// NNNN_name.sql with name of [a-z0-9_]: the migration's number, or -1.
int migration_number(std::string_view name) {
  constexpr std::string_view suffix = ".sql";
  if (name.size() < 4 + 1 + 1 + suffix.size() ||
      name.substr(name.size() - suffix.size()) != suffix || name[4] != '_') {
    return -1;
  }
  int number = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    number = number * 10 + (name[i] - '0');
  }
  for (const char c : name.substr(5, name.size() - 5 - suffix.size())) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return -1;
  }
  return number;
}

std::vector<MigrationFile> list_migrations(const std::string& dir) {
  std::vector<MigrationFile> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    const int number = migration_number(name);
    if (number < 0) continue;
    out.push_back({number, name, entry.path().string()});
  }
  std::sort(out.begin(), out.end(),
            [](const MigrationFile& a, const MigrationFile& b) { return a.version < b.version; });
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i].version == out[i - 1].version) {
      throw std::runtime_error("two migrations with number " + std::to_string(out[i].version));
    }
  }
  return out;
}

std::vector<std::string> apply_migrations(MysqlSession& admin, const std::string& dir,
                                          const std::function<void(const std::string&)>& progress) {
  const auto files = list_migrations(dir);
  auto& conn = admin.connection();
  const NamedLock lock(conn, "placard.migrate");
  const std::unique_ptr<sql::Statement> st(conn.createStatement());
  st->execute(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INT UNSIGNED NOT NULL PRIMARY KEY, "
      "name VARCHAR(255) NOT NULL, applied_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP()) "
      "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
  std::set<int> applied;
  {
    const std::unique_ptr<sql::ResultSet> rs(
        st->executeQuery("SELECT version FROM schema_migrations"));
    while (rs->next()) applied.insert(rs->getInt(1));
  }
  std::vector<std::string> done;
  for (const auto& f : files) {
    if (applied.count(f.version) != 0) continue;
    if (progress) progress(f.name);
    for (const auto& statement : split_sql_script(read_file(f.path))) st->execute(statement);
    const std::unique_ptr<sql::PreparedStatement> rec(
        conn.prepareStatement("INSERT INTO schema_migrations (version, name) VALUES (?, ?)"));
    rec->setInt(1, f.version);
    rec->setString(2, f.name);
    rec->execute();
    done.push_back(f.name);
  }
  return done;
}

void run_script_file(MysqlSession& admin, const std::string& path) {
  const auto statements = split_sql_script(read_file(path));
  auto& conn = admin.connection();
  const std::unique_ptr<sql::Statement> st(conn.createStatement());
  st->execute("START TRANSACTION");
  try {
    for (const auto& statement : statements) st->execute(statement);
    st->execute("COMMIT");
  } catch (...) {
    st->execute("ROLLBACK");
    throw;
  }
}

}  // namespace placard::db
