#include "lib/store/event_row_sql.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "lib/crypto/sha256.h"
#include "lib/db/sql_literals.h"
#include "lib/util/append_decimal.h"
#include "lib/util/byte_view.h"

namespace placard::db {

std::string bytes_of(const std::array<unsigned char, 16>& a) {
  return std::string(util::as_chars(a));
}

std::string nonce_hex_upper(const EventRecord& e) {
  std::string hex = crypto::to_hex(util::as_chars(e.nonce));
  std::transform(hex.begin(), hex.end(), hex.begin(),
                 [](char c) { return (c >= 'a' && c <= 'f') ? static_cast<char>(c - 32) : c; });
  return hex;
}

void bind_event_row(sql::PreparedStatement& st, unsigned first, const EventRecord& e) {
  st.setString(first, bytes_of(e.nonce));
  st.setUInt64(first + 1, e.offer_id);
  st.setString(first + 2, e.placement);
  st.setString(first + 3, e.country);
  st.setInt64(first + 4, e.issued_at);
  if (e.client == ClientHash{}) {
    st.setNull(first + 5, sql::DataType::VARCHAR);  // unknown client: never limited
  } else {
    st.setString(first + 5, bytes_of(e.client));
  }
}

void append_event_row(std::string& sql, const EventRecord& e) {
  sql += '(';
  append_hex_literal(sql, util::as_chars(e.nonce));
  sql += ", ";
  util::append_decimal(sql, e.offer_id);
  sql += ", ";
  append_hex_literal(sql, e.placement);
  sql += ", ";
  append_hex_literal(sql, e.country);
  sql += ", FROM_UNIXTIME(";
  util::append_decimal(sql, e.issued_at);
  sql += "), ";
  if (e.client == ClientHash{}) {
    sql += "NULL";  // unknown client: never limited
  } else {
    append_hex_literal(sql, util::as_chars(e.client));
  }
  sql += ')';
}

}  // namespace placard::db
