#pragma once
// Whether this test binary runs under AddressSanitizer (clang's or g++'s). The sanitized pass of
// scripts/test.sh looks for memory errors, which a sample of a sweep finds as well as the whole of
// it; the plain pass does the whole sweep for volume. A few unit tests sweep a large input (the
// framework's every method body, 200,000 random bodies, a 200,000-line diff): under the
// sanitizers they cost ten times their plain time, and they take a tenth of it there.

namespace cil::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// sweep_size(n): n in a plain build, a tenth of it (at least one) under the sanitizers.
constexpr long sweep_size(long n) { return kSanitized ? (n / 10 > 0 ? n / 10 : 1) : n; }

}  // namespace cil::testing
