#include "lib/store/ignored_reason.h"

namespace placard::db {

std::string_view ignored_reason_name(IgnoredReason reason) {
  switch (reason) {
    case IgnoredReason::prefetch:
      return "prefetch";
    case IgnoredReason::head:
      return "head";
    case IgnoredReason::bot:
      return "bot";
    case IgnoredReason::rate_limited:
      return "rate_limited";
    case IgnoredReason::none:
      break;
  }
  return "";
}

std::optional<IgnoredReason> ignored_reason_from(std::string_view name) {
  for (const auto r : {IgnoredReason::prefetch, IgnoredReason::head, IgnoredReason::bot,
                       IgnoredReason::rate_limited}) {
    if (ignored_reason_name(r) == name) return r;
  }
  return std::nullopt;
}

}  // namespace placard::db
