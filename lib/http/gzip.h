#pragma once
#include <string>
#include <string_view>

namespace placard::http {

// gzip (RFC 1952) of data at the best compression: for answers compressed once and sent often.
// Throws std::runtime_error when zlib fails.
std::string gzip_compress(std::string_view data);

// True when an Accept-Encoding header accepts gzip (listed, or via "*", with q > 0).
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace placard::http
