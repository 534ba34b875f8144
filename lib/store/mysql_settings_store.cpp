#include "lib/store/mysql_settings_store.h"

namespace placard::db {

std::map<std::string, std::string> MysqlSettingsStore::read_all(bool lock) {
  return db_.call([&](MysqlSession& s) {
    std::map<std::string, std::string> out;
    const auto rs = query(s.prepared(lock ? "SELECT name, value FROM settings FOR UPDATE"
                                          : "SELECT name, value FROM settings"));
    while (rs->next()) out[rs->getString(1).asStdString()] = rs->getString(2).asStdString();
    return out;
  });
}

void MysqlSettingsStore::write(const std::string& name, const std::string& value) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "INSERT INTO settings (name, value) VALUES (?, ?) "
        "ON DUPLICATE KEY UPDATE value = VALUES(value), updated_at = UTC_TIMESTAMP()");
    st.setString(1, name);
    st.setString(2, value);
    st.executeUpdate();
  });
}

}  // namespace placard::db
