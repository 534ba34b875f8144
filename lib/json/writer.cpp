#include "lib/json/writer.h"

namespace placard::json {

void append_quoted(std::string& out, std::string_view s) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  out.append(buf.GetString(), buf.GetSize());
}

}  // namespace placard::json
