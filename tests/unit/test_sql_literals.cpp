#include "lib/db/sql_literals.h"
#include "lib/util/append_decimal.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

using placard::db::append_hex_literal;
using placard::util::append_decimal;

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
  append_decimal(sql, std::numeric_limits<std::int64_t>::min());
  sql += ' ';
  append_decimal(sql, std::numeric_limits<std::uint64_t>::max());
  sql += ' ';
  append_decimal(sql, 0);
  EXPECT_EQ(sql, "-9223372036854775808 18446744073709551615 0");
}
