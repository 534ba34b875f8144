#pragma once
#include "lib/db/admin_db.h"
#include "lib/store/settings_store.h"

namespace placard::db {

class MysqlSettingsStore : public SettingsStore {
 public:
  explicit MysqlSettingsStore(AdminDb& db) : db_(db) {}

  std::map<std::string, std::string> read_all(bool lock) override;
  void write(const std::string& name, const std::string& value) override;

 private:
  AdminDb& db_;
};

}  // namespace placard::db
