#pragma once
// placard.fcgi's command line: the flags, their usage text, and the environment variables that
// stand in for a flag that was not given.
#include <cstdio>
#include <optional>
#include <string>

namespace placard::fcgi {

struct Options {
  std::string config_path;
  std::string listen;
  int threads = 0;  // 0: the environment's PLACARD_THREADS, else the config's `threads`
  std::string socket_group;
  int processes = 0;  // 0: this process serves; N: a supervisor of N worker processes
  bool bench_echo = false;
  bool version = false;
};

void usage(std::FILE* out);

// The options, or nullopt when --help printed the usage. std::invalid_argument for an unknown
// flag, a missing value or a number that is not one (or out of range).
std::optional<Options> parse_args(int argc, char** argv);

// The environment variable's value, when set and not empty; else `fallback`.
std::string env_or(const char* name, const std::string& fallback);

// The listen address: --listen, else $PLACARD_LISTEN, else `fallback` (the config's).
std::string listen_address(const Options& opt, const std::string& fallback);

// Request threads: --threads, else $PLACARD_THREADS, else `fallback`. std::invalid_argument
// when the environment's value is not a number from 1 to 256.
int thread_count(const Options& opt, int fallback);

}  // namespace placard::fcgi
