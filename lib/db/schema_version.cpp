#include "lib/db/schema_version.h"

#include <string>

namespace placard::db {

std::optional<int> applied_schema_version(MysqlSession& session) {
  try {
    return session.run(true, [](MysqlSession& s) -> int {
      const auto rs = query(s.prepared("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"));
      return rs->next() ? rs->getInt(1) : 0;
    });
  } catch (const DatabaseError&) {
    return std::nullopt;
  } catch (const DatabaseUnavailable&) {
    return std::nullopt;
  }
}

std::string schema_too_old_message(int applied, int required) {
  if (applied >= required) return {};
  return "the database schema is at migration " + std::to_string(applied) +
         ", this placard.fcgi needs migration " + std::to_string(required) +
         ": run `placardctl migrate` (after a backup), then start the worker again";
}

std::string check_schema_at_start(const ConnectionParams& params,
                                  const std::function<void(const std::string&)>& log) {
  init_driver();
  const DriverThreadScope scope;
  MysqlSession session(params);
  const auto applied = applied_schema_version(session);
  if (!applied) {
    log("schema: cannot read schema_migrations now; not checked (this build needs migration " +
        std::to_string(kRequiredSchemaVersion) + ")");
    return {};
  }
  if (*applied > kRequiredSchemaVersion) {
    log("schema: the database is at migration " + std::to_string(*applied) +
        ", newer than this build's " + std::to_string(kRequiredSchemaVersion) +
        " (a newer release migrated it)");
  }
  return schema_too_old_message(*applied, kRequiredSchemaVersion);
}

}  // namespace placard::db
