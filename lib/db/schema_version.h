#pragma once
#include <functional>
#include <optional>
#include <string>

#include "lib/db/mysql_session.h"

namespace placard::db {

// The newest migration (sql/NNNN_*.sql) this build's queries need. Raise it with every new
// migration file: a unit test (tests/unit/test_schema_version.cpp) fails while it differs from
// the highest number under sql/.
inline constexpr int kRequiredSchemaVersion = 16;

// The highest migration recorded in schema_migrations (0 when none); nullopt when the database
// cannot be asked (unreachable, or no schema_migrations table yet).
std::optional<int> applied_schema_version(MysqlSession& session);

// The worker's start-up check: empty when `applied` is at least `required`; otherwise the
// message that refuses the start and names `placardctl migrate`.
std::string schema_too_old_message(int applied, int required);

// The worker's start: asks the database (one connection, on this thread) and returns the
// refusal message when its schema is older than kRequiredSchemaVersion; empty otherwise. A
// database that cannot be asked is reported through `log` and does not stop the start (the
// worker answers 503 until it can reach it, as before).
std::string check_schema_at_start(const ConnectionParams& params,
                                  const std::function<void(const std::string&)>& log);

}  // namespace placard::db
