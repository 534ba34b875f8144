#include "lib/db/sql_literals.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

using placard::db::append_hex_literal;
using placard::db::append_int;
using placard::db::append_uint;

TEST(SqlLiterals, BytesAsHexLiteralsWithNothingToEscape) {
  std::string sql = "VALUES (";
  append_hex_literal(sql, std::string("a'\\\0\xff", 5));
  sql += ", ";
  append_hex_literal(sql, "");
  sql += ")";
  EXPECT_EQ(sql, "VALUES (X'61275C00FF', '')");
}

TEST(SqlLiterals, IntegersAsDecimalDigits) {
  std::string sql;
  append_int(sql, std::numeric_limits<std::int64_t>::min());
  sql += ' ';
  append_uint(sql, std::numeric_limits<std::uint64_t>::max());
  sql += ' ';
  append_uint(sql, 0);
  EXPECT_EQ(sql, "-9223372036854775808 18446744073709551615 0");
}
