// json::FlatObject: scalar fields in the order added, integers with their sign, strings escaped,
// and nothing after the object is closed.
#include "lib/json/flat_object.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace {

using placard::json::FlatObject;

TEST(FlatObject, FieldsInTheOrderAdded) {
  const std::string name = "Trav\"el\n";
  EXPECT_EQ(FlatObject()
                .add("name", name)
                .add("icon", "plane")
                .add("path", std::string_view("a.b"))
                .add("enabled", true)
                .add("shown", false)
                .str(),
            R"({"name":"Trav\"el\n","icon":"plane","path":"a.b","enabled":true,"shown":false})");
}

TEST(FlatObject, IntegersKeepTheirSign) {
  const int order = -3;
  const unsigned created = 4'000'000'000U;
  const std::uint64_t count = std::numeric_limits<std::uint64_t>::max();
  const std::int64_t least = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(FlatObject()
                .add("order", order)
                .add("created", created)
                .add("count", count)
                .add("least", least)
                .str(),
            R"({"order":-3,"created":4000000000,"count":18446744073709551615,)"
            R"("least":-9223372036854775808})");
}

TEST(FlatObject, EmptyAndClosedOnce) {
  FlatObject empty;
  EXPECT_EQ(empty.str(), "{}");
  EXPECT_EQ(empty.str(), "{}");  // asking twice does not close it twice
  EXPECT_THROW(empty.add("late", 1), std::logic_error);
}

}  // namespace
