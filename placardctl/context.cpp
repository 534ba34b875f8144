#include <filesystem>

#include "placardctl/commands.h"

namespace placard::ctl {

std::string sql_dir_of(const config::ServerConfig& c) {
  if (!c.sql_dir.empty()) return c.sql_dir;
  return (std::filesystem::canonical("/proc/self/exe").parent_path().parent_path() / "sql")
      .string();
}

}  // namespace placard::ctl
