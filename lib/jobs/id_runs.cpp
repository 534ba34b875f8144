#include "lib/jobs/id_runs.h"

#include <zlib.h>

#include <stdexcept>

namespace placard::db {

namespace {

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

class VarintReader {
 public:
  explicit VarintReader(const std::string& in) : in_(in) {}
  bool done() const { return pos_ >= in_.size(); }
  std::size_t pos() const { return pos_; }
  std::uint64_t next() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) throw std::runtime_error("id runs: truncated");
      const auto b = static_cast<unsigned char>(in_[pos_++]);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    throw std::runtime_error("id runs: an integer longer than 64 bits");
  }

 private:
  const std::string& in_;
  std::size_t pos_ = 0;
};

// The raw runs' length, then zlib's stream of them.
std::string compress_runs(const std::string& runs) {
  uLongf size = compressBound(static_cast<uLong>(runs.size()));
  std::string out;
  put_varint(out, runs.size());
  const std::size_t head = out.size();
  out.resize(head + size);
  if (compress2(reinterpret_cast<Bytef*>(out.data() + head), &size,
                reinterpret_cast<const Bytef*>(runs.data()), static_cast<uLong>(runs.size()),
                Z_BEST_SPEED) != Z_OK) {
    throw std::runtime_error("id runs: zlib could not compress");
  }
  out.resize(head + size);
  return out;
}

std::string uncompress_runs(const std::string& encoded) {
  VarintReader head(encoded);
  const std::uint64_t length = head.next();
  const std::size_t skip = head.pos();
  // A span's runs are at most ten bytes for each of its (at most max_rows) rows and gaps.
  if (length > (std::uint64_t{1} << 28)) throw std::runtime_error("id runs: implausible size");
  std::string runs(length, '\0');
  uLongf size = static_cast<uLongf>(length);
  if (uncompress(reinterpret_cast<Bytef*>(runs.data()), &size,
                 reinterpret_cast<const Bytef*>(encoded.data() + skip),
                 static_cast<uLong>(encoded.size() - skip)) != Z_OK ||
      size != length) {
    throw std::runtime_error("id runs: not a zlib stream of the stated size");
  }
  return runs;
}

}  // namespace

std::string encode_id_runs(std::uint64_t lo, const std::vector<std::uint64_t>& ids) {
  std::string runs;
  std::uint64_t next = lo + 1;  // the first id not yet described
  for (std::size_t i = 0; i < ids.size();) {
    if (ids[i] < next) throw std::invalid_argument("id runs: ids not ascending above lo");
    std::size_t j = i + 1;
    while (j < ids.size() && ids[j] == ids[j - 1] + 1) ++j;
    put_varint(runs, ids[i] - next);  // absent
    put_varint(runs, j - i);          // present
    next = ids[j - 1] + 1;
    i = j;
  }
  return compress_runs(runs);
}

std::vector<std::uint64_t> ids_not_in(const std::string& encoded, std::uint64_t lo,
                                      const std::vector<std::uint64_t>& now) {
  const std::string runs = uncompress_runs(encoded);
  VarintReader in(runs);
  std::vector<std::uint64_t> out;
  std::uint64_t first = lo + 1;  // the current run of present ids: [first, end)
  std::uint64_t end = first;
  for (const std::uint64_t id : now) {
    while (id >= end && !in.done()) {
      first = end + in.next();
      end = first + in.next();
    }
    if (id < first || id >= end) out.push_back(id);
  }
  return out;
}

}  // namespace placard::db
