// LIKE patterns for the admin lists' searches: the metacharacters and the escape escaped.
#include "lib/db/like_pattern.h"

#include <gtest/gtest.h>

namespace {

TEST(LikePattern, EscapesMetacharactersAndTheEscape) {
  EXPECT_EQ(placard::db::like_escape("50%_off!\\'"), "50!%!_off!!\\'");
  EXPECT_EQ(placard::db::like_contains("a%"), "%a!%%");
  EXPECT_EQ(placard::db::like_prefix("books."), "books.%");
}

}  // namespace
