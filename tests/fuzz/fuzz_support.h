#pragma once
// Helpers shared by the libFuzzer targets (tests/fuzz/fuzz_*.cpp). Each target defines
// LLVMFuzzerTestOneInput; the invariants they check call fuzz_check, which aborts, so that
// libFuzzer reports the input as a crash and saves it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace placard::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Aborts with the message when an invariant does not hold.
inline void fuzz_check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
  }
}

// Splits text at every occurrence of sep (the pieces may be empty).
inline std::vector<std::string_view> split(std::string_view text, std::string_view sep) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto at = text.find(sep);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return out;
    text.remove_prefix(at + sep.size());
  }
}

}  // namespace placard::fuzz
