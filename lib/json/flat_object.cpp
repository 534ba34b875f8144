#include "lib/json/flat_object.h"

#include <stdexcept>

namespace placard::json {

void FlatObject::write_key(std::string_view key) {
  if (writer_.IsComplete()) throw std::logic_error("FlatObject: a field after str()");
  writer_.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
}

FlatObject& FlatObject::add(std::string_view key, std::string_view value) {
  write_key(key);
  writer_.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  return *this;
}

FlatObject& FlatObject::add(std::string_view key, bool value) {
  write_key(key);
  writer_.Bool(value);
  return *this;
}

std::string FlatObject::str() {
  if (!writer_.IsComplete()) writer_.EndObject();
  return to_string(buf_);
}

}  // namespace placard::json
