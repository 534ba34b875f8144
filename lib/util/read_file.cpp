#include "lib/util/read_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace placard::util {

std::optional<std::string> read_whole_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::nullopt;  // opens, yet reads nothing
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  // An empty file sets failbit on the copy (no characters); only a read error sets badbit.
  if (in.bad() || out.bad()) return std::nullopt;
  return std::move(out).str();
}

}  // namespace placard::util
