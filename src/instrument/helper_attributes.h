// Attributes of the types and members the modes inject (<CilInstrument> and its members, and
// the value types that hold static data), named once for count and trace mode.
#pragma once

#include "metadata/flags.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// A static class, as C# emits one: abstract and sealed (II.10.1.4).
inline constexpr md::TypeAttributes kStaticClass = md::TypeAttributes::Abstract | md::TypeAttributes::Sealed;
/// A value type of fixed size whose static field holds RVA data, as C#'s array initializers
/// (II.16.3.2): explicit layout (its size from ClassLayout), sealed.
inline constexpr md::TypeAttributes kDataType = md::TypeAttributes::ExplicitLayout | md::TypeAttributes::Sealed;
/// A static field visible to the module only.
inline constexpr md::FieldAttributes kHelperField = md::FieldAttributes::Assembly | md::FieldAttributes::Static;
/// A static method visible to the module only, or to the helper type only.
inline constexpr md::MethodAttributes kHelperMethod =
    md::MethodAttributes::Assem | md::MethodAttributes::Static | md::MethodAttributes::HideBySig;
inline constexpr md::MethodAttributes kPrivateHelperMethod =
    md::MethodAttributes::Private | md::MethodAttributes::Static | md::MethodAttributes::HideBySig;
/// A type initializer, .cctor (II.10.5.3.1): private static, specialname rtspecialname.
inline constexpr md::MethodAttributes kTypeInitializer = kPrivateHelperMethod | md::MethodAttributes::SpecialName |
                                                         md::MethodAttributes::RTSpecialName;

}  // namespace cil::instrument
