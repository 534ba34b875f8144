#include "placardctl/stored_settings.h"

#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace placard::ctl {

catalog::Settings stored_settings(db::MysqlSession& session) {
  std::map<std::string, std::string> values;
  const auto rs = db::query(session.prepared("SELECT name, value FROM settings"));
  while (rs->next()) values[rs->getString(1).asStdString()] = rs->getString(2).asStdString();
  std::vector<std::string> problems;
  auto settings = catalog::parse_settings(values, problems);
  for (const auto& p : problems) std::cerr << "placardctl: setting: " << p << "\n";
  return settings;
}

}  // namespace placard::ctl
