#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace placard::db {

// Splits an SQL script into statements at ';' outside quotes, backticks and comments
// ("-- ", "#", "/* */"). Comments and blank statements are dropped.
std::vector<std::string> split_sql_script(std::string_view script);

}  // namespace placard::db
