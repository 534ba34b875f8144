#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace placard::journal {

// One journal file as `placardctl journal status` shows it (read without taking it from its
// process: a worker's replay that meets the brief shared lock skips the file for a second).
struct FileStatus {
  std::string path;
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;     // whole records
  std::uint64_t torn_bytes = 0;  // unreadable bytes at the end (a record torn by a crash)
  bool held = false;             // locked by a live process (its active file, or being replayed)
};

std::vector<FileStatus> journal_status(const std::string& dir);

}  // namespace placard::journal
