#pragma once
#include <map>
#include <string>

namespace placard::db {

// The administrator settings (table `settings`): name -> value as stored text, in the forms
// catalog::parse_settings reads ("true"/"false", decimal integers, a version, a JSON array).
class SettingsStore {
 public:
  virtual ~SettingsStore() = default;
  // Every stored setting. With `lock` (inside AdminTx::run) the rows stay locked until the
  // transaction ends, so two concurrent writes cannot each pass a check against the other.
  virtual std::map<std::string, std::string> read_all(bool lock) = 0;
  // Inserts or replaces one setting.
  virtual void write(const std::string& name, const std::string& value) = 0;
};

}  // namespace placard::db
