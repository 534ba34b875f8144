#pragma once
// The one way to read a whole (small) file: config files, secret files, migrations.
#include <optional>
#include <string>

namespace placard::util {

// The file's bytes, unchanged (binary: no newline translation); nullopt when it cannot be
// opened or read through to its end. Callers say what the file was in their own error.
std::optional<std::string> read_whole_file(const std::string& path);

}  // namespace placard::util
