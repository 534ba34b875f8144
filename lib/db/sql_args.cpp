#include "lib/db/sql_args.h"

namespace placard::db {

unsigned SqlArgs::bind(sql::PreparedStatement& st) const {
  unsigned i = 1;
  for (const auto& v : values_) {
    if (const auto* s = std::get_if<std::string>(&v)) {
      st.setString(i, *s);
    } else if (const auto* n = std::get_if<std::int64_t>(&v)) {
      st.setInt64(i, *n);
    } else if (const auto* u = std::get_if<std::uint64_t>(&v)) {
      st.setUInt64(i, *u);
    } else {
      st.setBoolean(i, std::get<bool>(v));
    }
    ++i;
  }
  return i;
}

}  // namespace placard::db
