#include "lib/http/gzip.h"

#include <zlib.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "lib/http/header.h"
#include "lib/util/trim.h"

namespace placard::http {

namespace {

struct DeflateEnd {
  void operator()(z_stream* s) const { deflateEnd(s); }
};

}  // namespace

std::string gzip_compress(std::string_view data) {
  z_stream stream{};
  constexpr int kGzipWindow = 15 + 16;  // 15-bit window, gzip wrapper
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, kGzipWindow, 9, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw std::runtime_error("zlib: deflateInit2 failed");
  }
  const std::unique_ptr<z_stream, DeflateEnd> guard(&stream);
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  if (deflate(&stream, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("zlib: deflate failed");
  out.resize(stream.total_out);
  return out;
}

bool accepts_gzip(std::string_view accept_encoding) {
  double gzip = -1;
  double any = -1;
  while (!accept_encoding.empty()) {
    const auto comma = accept_encoding.find(',');
    const auto item = accept_encoding.substr(0, comma);
    accept_encoding =
        comma == std::string_view::npos ? std::string_view{} : accept_encoding.substr(comma + 1);
    const auto semi = item.find(';');
    const auto coding = util::trim(item.substr(0, semi));
    double q = 1.0;
    if (semi != std::string_view::npos) {
      const auto param = util::trim(item.substr(semi + 1));
      if (param.size() > 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
        const std::string value(param.substr(2));
        q = std::strtod(value.c_str(), nullptr);
      }
    }
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) gzip = q;
    if (coding == "*") any = q;
  }
  return gzip > 0 || (gzip < 0 && any > 0);
}

}  // namespace placard::http
