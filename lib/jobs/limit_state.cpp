#include "lib/jobs/limit_state.h"

#include <algorithm>
#include <limits>

#include "lib/util/append_decimal.h"
#include "lib/util/parse_int.h"

namespace placard::db {

std::string encode_counted(const std::vector<std::int64_t>& times) {
  std::string out;
  out.reserve(times.size() * 14);
  for (const auto t : times) {
    if (!out.empty()) out += ',';
    util::append_decimal(out, t);
  }
  return out;
}

std::vector<std::int64_t> decode_counted(std::string_view text) {
  std::vector<std::int64_t> out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    if (const auto t = util::parse_int_in<std::int64_t>(text.substr(0, comma),
                                                        std::numeric_limits<std::int64_t>::min(),
                                                        std::numeric_limits<std::int64_t>::max())) {
      out.push_back(*t);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace placard::db
