#include "lib/db/named_lock.h"

namespace placard::db {

NamedLock::NamedLock(MysqlSession& session, std::string name, int timeout_seconds)
    : session_(session), name_(std::move(name)) {
  auto& st = session_.prepared("SELECT GET_LOCK(?, ?)");
  st.setString(1, name_);
  st.setInt(2, timeout_seconds);
  const auto rs = query(st);
  held_ = rs->next() && !rs->isNull(1) && rs->getInt(1) == 1;
}

NamedLock::~NamedLock() {
  if (!held_) return;
  try {
    auto& st = session_.prepared("DO RELEASE_LOCK(?)");
    st.setString(1, name_);
    st.execute();
  } catch (const std::exception&) {
    // The lock ends with the connection anyway.
  }
}

}  // namespace placard::db
