#include "lib/http/gzip.h"

#include <zlib.h>

#include <memory>
#include <stdexcept>

#include "lib/http/header.h"
#include "lib/http/negotiation.h"

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
  for_each_weighted(accept_encoding, [&](std::string_view coding, double q) {
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) gzip = q;
    if (coding == "*") any = q;
  });
  return gzip > 0 || (gzip < 0 && any > 0);
}

}  // namespace placard::http
