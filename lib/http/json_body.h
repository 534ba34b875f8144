#pragma once
#include <cstddef>

#include "lib/http/request.h"
#include "lib/json/rapidjson.h"

namespace placard::http {

inline constexpr std::size_t kMaxBodyBytes = std::size_t{16} * 1024;

// A parsed request body whose values live in a buffer inside the object (on the request
// thread's stack) rather than in RapidJSON's default 64 KiB heap chunk per parse.
class BodyDocument {
 public:
  BodyDocument() = default;
  BodyDocument(const BodyDocument&) = delete;
  BodyDocument& operator=(const BodyDocument&) = delete;
  rapidjson::Document& doc() { return doc_; }
  const rapidjson::Document& doc() const { return doc_; }

 private:
  alignas(std::max_align_t) char buffer_[kMaxBodyBytes * 2];
  rapidjson::MemoryPoolAllocator<> allocator_{buffer_, sizeof buffer_};
  rapidjson::Document doc_{&allocator_};
};

// The body rules of contract section 0, in order: Content-Type application/json (415),
// at most 16 KiB, checked before reading (413), valid JSON object (400 invalid_json).
// Throws http::ApiError; fills doc with the parsed object.
void parse_object_body(http::Request& request, rapidjson::Document& doc);

bool is_json_content_type(std::string_view content_type);

}  // namespace placard::http
