#pragma once
#include <string>
#include <string_view>

#include "lib/json/rapidjson.h"

namespace placard::json {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

inline std::string to_string(const rapidjson::StringBuffer& buf) {
  return {buf.GetString(), buf.GetSize()};
}

// Appends s as a JSON string literal (quotes included) to out.
void append_quoted(std::string& out, std::string_view s);

}  // namespace placard::json
