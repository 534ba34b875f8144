#pragma once
#include <string>

namespace placard::util {

// Writes `text` as the file `path`, readable and writable by its owner only (0600) from the
// moment it exists: the bytes go to a new temporary file in the same directory (created
// exclusively, so never through a symlink, and mode 0600 before the first byte), which is
// flushed to disk and then renamed to `path`. With `replace`, whatever is at `path` (a file or
// a symlink, which is replaced, not followed) gives way in one step; without it, an existing
// `path` (a dangling symlink included) is left alone and the call throws. Throws
// std::runtime_error on any failure, leaving no temporary file behind.
void write_private_file(const std::string& path, const std::string& text, bool replace);

}  // namespace placard::util
