#pragma once
// `placardctl setup`'s database side: the database and the runtime user, made idempotently by an
// administrative connection (one with CREATE and CREATE USER), and the first account's check.
#include <string>

#include "lib/db/mysql_session.h"

namespace placard::db {

// CREATE DATABASE IF NOT EXISTS, utf8mb4. The name must be [A-Za-z0-9_]+ (std::invalid_argument).
void create_database(MysqlSession& admin, const std::string& name);

// Creates 'user'@'host' when missing and sets its password (so a rerun with the config's
// password brings an existing user back in line). Names: [A-Za-z0-9_.-]+, host also % and :.
void ensure_user(MysqlSession& admin, const std::string& user, const std::string& host,
                 const std::string& password);

// A string literal for SQL (quotes and backslashes escaped), for the statements above.
std::string sql_quote(const std::string& text);

// Whether an account has this email.
bool account_exists(MysqlSession& session, const std::string& email);

}  // namespace placard::db
