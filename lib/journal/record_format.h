#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/store/event_store.h"

namespace placard::journal {

// One click kept in the journal, as bytes on disk (all integers little-endian):
//
//   magic "PCJ1" (4) | payload length (u32) | CRC-32 of the payload (u32) | payload
//   payload: ignored reason (u8, db::IgnoredReason) | nonce (16) | offer id (u64) |
//            issued_at (i64) | client hash (16) | placement length (u8) | placement |
//            country length (u8) | country
//
// A record is whole or not at all: a torn write (a crash mid-append) fails the length or the
// checksum, and the reader stops there.
constexpr std::string_view kMagic = "PCJ1";
constexpr std::size_t kHeaderBytes = 12;
constexpr std::size_t kMaxPayload = 1024;

std::string encode_record(const db::EventRecord& event);

// What a journal file holds: its whole records, and where the first unreadable bytes began
// (nullopt: none; the rest of the file, `torn_bytes` of it, is skipped).
struct Decoded {
  std::vector<db::EventRecord> records;
  std::optional<std::size_t> torn_at;
  std::size_t torn_bytes = 0;
};
Decoded decode_records(std::string_view bytes);

}  // namespace placard::journal
