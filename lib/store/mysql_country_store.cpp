#include "lib/store/mysql_catalog_admin_store.h"

namespace placard::db {

std::vector<CountryRecord> MysqlCountryStore::list(bool lock) {
  return db_.call([&](MysqlSession& s) {
    std::vector<CountryRecord> out;
    const auto rs = query(
        s.prepared(lock ? "SELECT code, name, selected FROM countries ORDER BY code FOR UPDATE"
                        : "SELECT code, name, selected FROM countries ORDER BY code"));
    while (rs->next()) {
      out.push_back(
          {rs->getString(1).asStdString(), rs->getString(2).asStdString(), rs->getBoolean(3)});
    }
    return out;
  });
}

void MysqlCountryStore::set_selected(const std::string& code, bool selected) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("UPDATE countries SET selected = ? WHERE code = ?");
    st.setBoolean(1, selected);
    st.setString(2, code);
    st.executeUpdate();
  });
}

}  // namespace placard::db
