#pragma once
// --bench-echo: the benchmark baseline, the same FastCGI adapter and threads answering every
// request with a constant 1 KiB JSON body (no config, no database).
#include "fcgi-app/options.h"

namespace placard::fcgi {

// Serves until a signal; the listen address and threads come from the options or environment.
int run_bench_echo(const Options& opt);

}  // namespace placard::fcgi
