// db::padded_rows: multi-row statements in a bounded number of shapes.
#include "lib/db/statement_shapes.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <set>

using placard::db::padded_rows;

TEST(StatementShapes, EnoughRowsForEveryCountUpToTheMaximum) {
  for (std::size_t n = 1; n <= 256; ++n) {
    const auto rows = padded_rows(n, 256);
    EXPECT_GE(rows, n) << n;
    EXPECT_LE(rows, 256U) << n;
    EXPECT_LT(rows, 2 * n) << n;  // never more than twice the rows asked for
  }
}

TEST(StatementShapes, FewShapesWhateverTheCounts) {
  std::set<std::size_t> shapes;
  for (std::size_t n = 1; n <= 256; ++n) shapes.insert(padded_rows(n, 256));
  EXPECT_EQ(shapes, (std::set<std::size_t>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
  shapes.clear();
  for (std::size_t n = 1; n <= 128; ++n) shapes.insert(padded_rows(n, 128));
  EXPECT_EQ(shapes.size(), 8U);
}

TEST(StatementShapes, PowersOfTwoStayAsTheyAre) {
  EXPECT_EQ(padded_rows(1, 256), 1U);
  EXPECT_EQ(padded_rows(3, 256), 4U);
  EXPECT_EQ(padded_rows(100, 128), 128U);
  EXPECT_EQ(padded_rows(129, 256), 256U);
  EXPECT_EQ(padded_rows(0, 256), 1U);
}
