#include "lib/db/migrations.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include "lib/crypto/sha256.h"
#include "lib/db/named_lock.h"
#include "lib/db/sql_script.h"
#include "lib/db/transaction.h"
#include "lib/util/read_file.h"

namespace placard::db {

namespace {

std::string read_file(const std::string& path) {
  auto text = util::read_whole_file(path);
  if (!text) throw std::runtime_error("cannot read " + path);
  return std::move(*text);
}

}  // namespace

std::string migration_checksum(std::string_view bytes) {
  const auto digest = crypto::sha256(bytes);
  return crypto::to_hex(
      std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

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
    const std::string path = entry.path().string();
    out.push_back({number, name, path, migration_checksum(read_file(path))});
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

std::vector<std::string> check_applied(const std::vector<MigrationFile>& files,
                                       const std::vector<AppliedMigration>& applied) {
  std::map<int, const MigrationFile*> by_version;
  for (const auto& f : files) by_version[f.version] = &f;
  std::vector<std::string> problems;
  for (const auto& a : applied) {
    const auto it = by_version.find(a.version);
    if (it == by_version.end() || it->second->name != a.name) {
      problems.push_back("the applied migration " + a.name + " is missing" +
                         (it == by_version.end() ? "" : " (found " + it->second->name + ")"));
    } else if (!a.checksum.empty() && a.checksum != it->second->checksum) {
      problems.push_back("the applied migration " + a.name +
                         " was changed after it was applied (recorded sha256 " + a.checksum +
                         ", the file has " + it->second->checksum + ")");
    }
  }
  return problems;
}

std::vector<std::string> apply_migrations(MysqlSession& admin, const std::string& dir,
                                          const std::function<void(const std::string&)>& progress) {
  const auto files = list_migrations(dir);
  auto& conn = admin.connection();
  const NamedLock lock(admin, "placard.migrate", 30);
  if (!lock.held()) throw std::runtime_error("another migration holds the lock placard.migrate");
  const std::unique_ptr<sql::Statement> st(conn.createStatement());
  st->execute(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INT UNSIGNED NOT NULL PRIMARY KEY, "
      "name VARCHAR(255) NOT NULL, applied_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP()) "
      "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
  // The migrator owns this table, so it adds its own columns (no migration file can, since the
  // migrations are recorded in it).
  st->execute(
      "ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum CHAR(64) CHARACTER SET "
      "ascii NULL AFTER name");
  std::vector<AppliedMigration> applied;
  {
    const std::unique_ptr<sql::ResultSet> rs(st->executeQuery(
        "SELECT version, name, COALESCE(checksum, '') FROM schema_migrations ORDER BY version"));
    while (rs->next()) {
      applied.push_back(
          {rs->getInt(1), rs->getString(2).asStdString(), rs->getString(3).asStdString()});
    }
  }
  const auto problems = check_applied(files, applied);
  if (!problems.empty()) {
    std::string message = "refusing to migrate, nothing applied: migrations are append-only";
    for (const auto& p : problems) message += "\n  " + p;
    message += "\n  (restore the applied files as they were; put changes in a new file)";
    throw std::runtime_error(message);
  }
  std::set<int> done_versions;
  for (const auto& a : applied) {
    done_versions.insert(a.version);
    if (!a.checksum.empty()) continue;
    // Recorded before checksums existed: the file as it is now is the reference from now on.
    const auto f = std::find_if(files.begin(), files.end(),
                                [&](const MigrationFile& m) { return m.version == a.version; });
    const std::unique_ptr<sql::PreparedStatement> fill(conn.prepareStatement(
        "UPDATE schema_migrations SET checksum = ? WHERE version = ? AND checksum IS NULL"));
    fill->setString(1, f->checksum);
    fill->setInt(2, a.version);
    fill->execute();
  }
  std::vector<std::string> done;
  for (const auto& f : files) {
    if (done_versions.count(f.version) != 0) continue;
    if (progress) progress(f.name);
    const std::string text = read_file(f.path);
    if (migration_checksum(text) != f.checksum) {
      throw std::runtime_error(f.name + " changed while migrating; nothing of it was applied");
    }
    for (const auto& statement : split_sql_script(text)) st->execute(statement);
    // Only after the file's last statement: a failed file is not recorded.
    const std::unique_ptr<sql::PreparedStatement> rec(conn.prepareStatement(
        "INSERT INTO schema_migrations (version, name, checksum) VALUES (?, ?, ?)"));
    rec->setInt(1, f.version);
    rec->setString(2, f.name);
    rec->setString(3, f.checksum);
    rec->execute();
    done.push_back(f.name);
  }
  return done;
}

void run_script_file(MysqlSession& admin, const std::string& path) {
  const auto statements = split_sql_script(read_file(path));
  const std::unique_ptr<sql::Statement> st(admin.connection().createStatement());
  Transaction tx(admin);
  for (const auto& statement : statements) st->execute(statement);
  tx.commit();
}

}  // namespace placard::db
