#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

#include "lib/json/rapidjson.h"

namespace placard::json {

inline constexpr std::size_t kMaxDepth = 16;

// Parses untrusted JSON into doc: UTF-8 validated, no recursion in the parser, at most kMaxDepth
// levels of nesting, nothing but whitespace after the value. False when any rule is broken.
bool parse_untrusted(std::string_view text, rapidjson::Document& doc);

// True when text is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool is_valid_utf8(std::string_view text);

// Depth of the deepest array/object nesting (a scalar is 0, {} is 1); stops counting past limit.
// A pass of its own, apart from parse_untrusted's: the fuzz target judges that one with it.
std::optional<std::size_t> nesting_depth(std::string_view text, std::size_t limit);

}  // namespace placard::json
