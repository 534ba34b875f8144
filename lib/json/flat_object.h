#pragma once
#include <concepts>
#include <string>
#include <string_view>

#include "lib/json/writer.h"

namespace placard::json {

// A JSON object of scalar fields, written in the order they are added: an audit row's
// before/after values and the small objects the admin API answers with. Integers keep their
// sign (signed as Int64, unsigned as Uint64); strings are escaped as RapidJSON escapes them.
class FlatObject {
 public:
  FlatObject() : writer_(buf_) { writer_.StartObject(); }

  FlatObject& add(std::string_view key, std::string_view value);
  FlatObject& add(std::string_view key, const char* value) {
    return add(key, std::string_view(value));
  }
  FlatObject& add(std::string_view key, const std::string& value) {
    return add(key, std::string_view(value));
  }
  FlatObject& add(std::string_view key, bool value);
  template <std::integral T>
  requires(!std::same_as<T, bool>) FlatObject& add(std::string_view key, T value) {
    write_key(key);
    if constexpr (std::signed_integral<T>) {
      writer_.Int64(value);
    } else {
      writer_.Uint64(value);
    }
    return *this;
  }

  // The object's text; the object is closed and takes no further field.
  std::string str();

 private:
  void write_key(std::string_view key);

  rapidjson::StringBuffer buf_;
  Writer writer_;
};

}  // namespace placard::json
