#pragma once
#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace placard::util {

// An extension version "<major>.<minor>.<patch>", each 0..99999 written with 1..5 digits.
struct Version {
  int major = 0;
  int minor = 0;
  int patch = 0;
  auto operator<=>(const Version&) const =
      default;  // NOLINT(modernize-use-nullptr): clang-tidy 14 false positive
  std::string to_string() const;
};

std::optional<Version> parse_version(std::string_view text);

}  // namespace placard::util
