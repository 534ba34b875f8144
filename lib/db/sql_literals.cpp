#include "lib/db/sql_literals.h"

namespace placard::db {

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

}  // namespace placard::db
