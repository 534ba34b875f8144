// The server config file: parse_config_text, then the typed ServerConfig built from its keys
// and rendered back. Input: the file's text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "tests/fuzz/fuzz_support.h"

using placard::fuzz::fuzz_check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = placard::fuzz::as_text(data, size);
  try {
    const auto values = placard::config::parse_config_text(text);
    const auto config = placard::config::server_config_from(values);
    // What init writes must read back as the same config.
    const auto again = placard::config::server_config_from(
        placard::config::parse_config_text(placard::config::render_server_config(config)));
    fuzz_check(placard::config::render_server_config(again) ==
                   placard::config::render_server_config(config),
               "a rendered config does not read back the same");
  } catch (const placard::config::ConfigError&) {
  }
  return 0;
}
