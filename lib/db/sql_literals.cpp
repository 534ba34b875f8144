#include "lib/db/sql_literals.h"

#include <array>
#include <charconv>

namespace placard::db {

namespace {

template <typename Int>
void append_digits(std::string& sql, Int value) {
  std::array<char, 24> buf{};
  const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  sql.append(buf.data(), end);
}

}  // namespace

void append_hex_literal(std::string& sql, std::string_view bytes) {
  if (bytes.empty()) {
    sql += "''";  // X'' would be an empty binary string too; say it plainly
    return;
  }
  static constexpr std::string_view kDigits = "0123456789ABCDEF";
  sql += "X'";
  for (const char ch : bytes) {
    const auto b = static_cast<unsigned char>(ch);
    sql += kDigits[b >> 4];
    sql += kDigits[b & 0x0F];
  }
  sql += '\'';
}

void append_int(std::string& sql, std::int64_t value) {
  append_digits(sql, value);
}

void append_uint(std::string& sql, std::uint64_t value) {
  append_digits(sql, value);
}

}  // namespace placard::db
