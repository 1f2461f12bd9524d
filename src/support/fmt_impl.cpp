// fmt's compiled part, built from the implementation header that Debian's libfmt-dev ships, so
// that the tool links no shared libfmt and can be linked statically (see CIL_STATIC).
// format-inl.h defines the library's functions; the two templates below are the ones fmt's own
// build instantiates for char and that nothing else here instantiates.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template char decimal_point_impl<char>(locale_ref);
template thousands_sep_result<char> thousands_sep_impl<char>(locale_ref);
}  // namespace detail
FMT_END_NAMESPACE
