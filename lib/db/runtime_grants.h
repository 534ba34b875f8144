#pragma once
// The runtime (worker) user's privileges, table by table: it may read and write the application's
// tables, add audit rows but never change or delete them, only read schema_migrations, and on a
// few more tables only what its statements need (no DELETE where it never removes rows, no INSERT
// where it only updates rows the migrations made, no UPDATE where it only adds rows).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lib/db/mysql_session.h"

namespace placard::db {

// The privileges the runtime user gets on a table of the application's database.
std::set<std::string> runtime_privileges(const std::string& table);

// What the server reports now for 'user'@'host' on the database.
struct CurrentGrants {
  std::vector<std::string> tables;                        // every base table of the database
  std::map<std::string, std::set<std::string>> by_table;  // table-level privileges held
  std::set<std::string> database_wide;                    // privileges held ON db.*
};

// The statements that bring the user from `current` to exactly runtime_privileges() on every
// table, in an order that never takes away what the running worker needs: the table grants
// first, then REVOKEs of anything more (database-wide, then per table). Empty when nothing
// needs to change (idempotent).
std::vector<std::string> plan_runtime_grants(const std::string& database, const std::string& user,
                                             const std::string& host, const CurrentGrants& current);

// Reads the current grants from information_schema (as an account that may see them).
CurrentGrants read_grants(MysqlSession& admin, const std::string& database, const std::string& user,
                          const std::string& host);

// 'user'@'host' with quotes escaped, as GRANT and information_schema write it.
std::string account_name(const std::string& user, const std::string& host);

}  // namespace placard::db
