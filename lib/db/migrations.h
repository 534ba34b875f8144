#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/db/mysql_session.h"

namespace placard::db {

struct MigrationFile {
  int version = 0;
  std::string name;  // file name, e.g. 0001_initial.sql
  std::string path;
  std::string checksum;  // SHA-256 of the file's bytes, lowercase hex
};

// A row of schema_migrations; checksum empty when it was recorded before checksums existed.
struct AppliedMigration {
  int version = 0;
  std::string name;
  std::string checksum;
};

// SHA-256 of a migration file's bytes, lowercase hex (what schema_migrations.checksum holds).
std::string migration_checksum(std::string_view bytes);

// NNNN_name.sql with name of [a-z0-9_]: the migration's number, or -1.
int migration_number(std::string_view name);

// sql/NNNN_name.sql files of a directory, sorted by number, with their checksums; other files
// are ignored. Throws std::runtime_error for two files with one number.
std::vector<MigrationFile> list_migrations(const std::string& dir);

// Migrations are append-only: every applied migration must still be there, unchanged. Returns
// one message per violation, naming the file: an applied file missing (or renamed), or whose
// bytes differ from the recorded checksum. Rows without a checksum are not judged here.
std::vector<std::string> check_applied(const std::vector<MigrationFile>& files,
                                       const std::vector<AppliedMigration>& applied);

// Applies every migration not yet recorded in schema_migrations, in order, under a named lock
// so two operators cannot race. First, check_applied: any violation throws std::runtime_error
// (all of them in its message) before anything is applied; rows recorded before checksums
// existed get the current file's checksum, once. Returns the names applied.
// A failed file throws and is not recorded, so a fixed file can be re-run. MySQL and MariaDB
// commit every DDL statement implicitly, so a migration is not atomic: the statements of a
// failed file before the failing one stay applied (write migrations that can be re-run, e.g.
// IF NOT EXISTS), and its schema_migrations row is written only after its last statement.
std::vector<std::string> apply_migrations(MysqlSession& admin, const std::string& dir,
                                          const std::function<void(const std::string&)>& progress);

// Runs every statement of a script file (demo data) in one db::Transaction: all or nothing
// (for data statements; the demo data has no DDL).
void run_script_file(MysqlSession& admin, const std::string& path);

}  // namespace placard::db
