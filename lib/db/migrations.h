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
};

// NNNN_name.sql with name of [a-z0-9_]: the migration's number, or -1.
int migration_number(std::string_view name);

// sql/NNNN_name.sql files of a directory, sorted by number; other files are ignored.
// Throws std::runtime_error for two files with one number.
std::vector<MigrationFile> list_migrations(const std::string& dir);

// Applies every migration not yet recorded in schema_migrations, in order, under a named lock
// so two operators cannot race. Returns the names applied. Throws on failure (the failed file
// is not recorded, so a fixed file can be re-run).
std::vector<std::string> apply_migrations(MysqlSession& admin, const std::string& dir,
                                          const std::function<void(const std::string&)>& progress);

// Runs every statement of a script file (demo data), in one transaction.
void run_script_file(MysqlSession& admin, const std::string& path);

}  // namespace placard::db
