#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp, fcgi-app and placardctl include this header (it needs
// mysql_session.h).
#include <cstdint>

#include "lib/db/mysql_session.h"

namespace placard::db {

// Deletes the accounts still pending (never approved) that registered more than `days` days
// ago, at most `batch` per transaction, each with an audit row (action account.expire, target
// account:<id>, before: id, email and status; after: null). Their failed sign-ins go with them;
// audit rows that named them keep their target (the link is set to NULL). Returns how many.
std::uint64_t expire_pending_accounts(MysqlSession& session, int days, int batch = 100);

}  // namespace placard::db
