#pragma once
#include <cstdint>
#include <string>

#include "lib/db/mysql_session.h"

namespace placard::db {

// Operator-side account writes (placardctl). Throws std::runtime_error with a clear message.
std::uint64_t create_account(MysqlSession& session, const std::string& email,
                             const std::string& password_hash, bool approved);
// False when no account has that email.
bool approve_account(MysqlSession& session, const std::string& email);

}  // namespace placard::db
