// The flag enums of metadata columns (ECMA-335 II.23.1), with their ECMA names and masks, and
// type-safe bit operations on them. tables.def names which enum each flags column holds.
#pragma once

#include <cstdint>
#include <type_traits>

namespace cil::md {

/// Opts an enum into the bit operators below; only the enums of this file are flag sets.
template <class E>
struct IsFlagEnum : std::false_type {};
template <class E>
concept FlagEnum = IsFlagEnum<E>::value;

/// The value as its underlying integer (for tables indexed by a masked field, and for writing).
template <class E>
  requires std::is_enum_v<E>
constexpr std::underlying_type_t<E> raw(E value) {
  return static_cast<std::underlying_type_t<E>>(value);
}

template <FlagEnum E>
constexpr E operator|(E a, E b) { return static_cast<E>(raw(a) | raw(b)); }
template <FlagEnum E>
constexpr E operator&(E a, E b) { return static_cast<E>(raw(a) & raw(b)); }
template <FlagEnum E>
constexpr E operator^(E a, E b) { return static_cast<E>(raw(a) ^ raw(b)); }
template <FlagEnum E>
constexpr E operator~(E a) { return static_cast<E>(static_cast<std::underlying_type_t<E>>(~raw(a))); }
template <FlagEnum E>
constexpr E& operator|=(E& a, E b) { return a = a | b; }
template <FlagEnum E>
constexpr E& operator&=(E& a, E b) { return a = a & b; }

/// True when every bit of `bits` is set in `value`. For a field under a mask (member access,
/// code type, layout...) compare `value & Mask` with the field's value instead: a field value
/// of 0 (Private, IL, AutoLayout...) is "set" in every value.
template <FlagEnum E>
constexpr bool has(E value, E bits) { return (raw(value) & raw(bits)) == raw(bits); }

/// AssemblyHashAlgorithm (II.23.1.1): Assembly.HashAlgId. A value, not a set of flags.
enum class AssemblyHashAlgorithm : uint32_t {
  None = 0x0000,
  MD5 = 0x8003,  ///< "Reserved" in ECMA-335
  SHA1 = 0x8004,
};

/// AssemblyFlags (II.23.1.2): Assembly.Flags and AssemblyRef.Flags.
enum class AssemblyFlags : uint32_t {
  PublicKey = 0x0001,  ///< the full public key, not its token
  Retargetable = 0x0100,
  DisableJITcompileOptimizer = 0x4000,
  EnableJITcompileTracking = 0x8000,
  // CLR extensions (corhdr.h afContentType_Mask): the content type, of which WindowsRuntime.
  ContentTypeMask = 0x0E00,
  WindowsRuntime = 0x0200,
};

/// EventAttributes (II.23.1.4): Event.EventFlags.
enum class EventAttributes : uint16_t {
  SpecialName = 0x0200,
  RTSpecialName = 0x0400,
};

/// FieldAttributes (II.23.1.5): Field.Flags.
enum class FieldAttributes : uint16_t {
  FieldAccessMask = 0x0007,
  CompilerControlled = 0x0000,
  Private = 0x0001,
  FamANDAssem = 0x0002,
  Assembly = 0x0003,
  Family = 0x0004,
  FamORAssem = 0x0005,
  Public = 0x0006,
  Static = 0x0010,
  InitOnly = 0x0020,
  Literal = 0x0040,
  NotSerialized = 0x0080,
  SpecialName = 0x0200,
  PInvokeImpl = 0x2000,
  RTSpecialName = 0x0400,
  HasFieldMarshal = 0x1000,
  HasDefault = 0x8000,
  HasFieldRVA = 0x0100,
};

/// FileAttributes (II.23.1.6): File.Flags.
enum class FileAttributes : uint32_t {
  ContainsMetaData = 0x0000,
  ContainsNoMetaData = 0x0001,
};

/// GenericParamAttributes (II.23.1.7): GenericParam.Flags.
enum class GenericParamAttributes : uint16_t {
  VarianceMask = 0x0003,
  None = 0x0000,
  Covariant = 0x0001,
  Contravariant = 0x0002,
  SpecialConstraintMask = 0x001C,
  ReferenceTypeConstraint = 0x0004,
  NotNullableValueTypeConstraint = 0x0008,
  DefaultConstructorConstraint = 0x0010,
  AllowByRefLike = 0x0020,  ///< .NET 9 extension: C#'s `allows ref struct`
};

/// PInvokeAttributes (II.23.1.8): ImplMap.MappingFlags.
enum class PInvokeAttributes : uint16_t {
  NoMangle = 0x0001,
  CharSetMask = 0x0006,
  CharSetNotSpec = 0x0000,
  CharSetAnsi = 0x0002,
  CharSetUnicode = 0x0004,
  CharSetAuto = 0x0006,
  SupportsLastError = 0x0040,
  CallConvMask = 0x0700,
  CallConvPlatformapi = 0x0100,
  CallConvCdecl = 0x0200,
  CallConvStdcall = 0x0300,
  CallConvThiscall = 0x0400,
  CallConvFastcall = 0x0500,
  // CLR extensions (corhdr.h CorPinvokeMap).
  BestFitMask = 0x0030,
  BestFitEnabled = 0x0010,
  BestFitDisabled = 0x0020,
  ThrowOnUnmappableCharMask = 0x3000,
  ThrowOnUnmappableCharEnabled = 0x1000,
  ThrowOnUnmappableCharDisabled = 0x2000,
};

/// ManifestResourceAttributes (II.23.1.9): ManifestResource.Flags.
enum class ManifestResourceAttributes : uint32_t {
  VisibilityMask = 0x0007,
  Public = 0x0001,
  Private = 0x0002,
};

/// MethodAttributes (II.23.1.10): MethodDef.Flags.
enum class MethodAttributes : uint16_t {
  MemberAccessMask = 0x0007,
  CompilerControlled = 0x0000,
  Private = 0x0001,
  FamANDAssem = 0x0002,
  Assem = 0x0003,
  Family = 0x0004,
  FamORAssem = 0x0005,
  Public = 0x0006,
  Static = 0x0010,
  Final = 0x0020,
  Virtual = 0x0040,
  HideBySig = 0x0080,
  VtableLayoutMask = 0x0100,
  ReuseSlot = 0x0000,
  NewSlot = 0x0100,
  Strict = 0x0200,
  Abstract = 0x0400,
  SpecialName = 0x0800,
  PInvokeImpl = 0x2000,
  UnmanagedExport = 0x0008,
  RTSpecialName = 0x1000,
  HasSecurity = 0x4000,
  RequireSecObject = 0x8000,
};

/// MethodImplAttributes (II.23.1.11): MethodDef.ImplFlags.
enum class MethodImplAttributes : uint16_t {
  CodeTypeMask = 0x0003,
  IL = 0x0000,
  Native = 0x0001,
  OPTIL = 0x0002,
  Runtime = 0x0003,
  ManagedMask = 0x0004,
  Unmanaged = 0x0004,
  Managed = 0x0000,
  ForwardRef = 0x0010,
  PreserveSig = 0x0080,
  InternalCall = 0x1000,
  Synchronized = 0x0020,
  NoInlining = 0x0008,
  MaxMethodImplVal = 0xFFFF,
  NoOptimization = 0x0040,
  // CLR extensions (corhdr.h CorMethodImpl).
  AggressiveInlining = 0x0100,
  AggressiveOptimization = 0x0200,
};

/// MethodSemanticsAttributes (II.23.1.12): MethodSemantics.Semantics.
enum class MethodSemanticsAttributes : uint16_t {
  Setter = 0x0001,
  Getter = 0x0002,
  Other = 0x0004,
  AddOn = 0x0008,
  RemoveOn = 0x0010,
  Fire = 0x0020,
};

/// ParamAttributes (II.23.1.13): Param.Flags.
enum class ParamAttributes : uint16_t {
  In = 0x0001,
  Out = 0x0002,
  Optional = 0x0010,
  HasDefault = 0x1000,
  HasFieldMarshal = 0x2000,
  Unused = 0xCFE0,
};

/// PropertyAttributes (II.23.1.14): Property.Flags.
enum class PropertyAttributes : uint16_t {
  SpecialName = 0x0200,
  RTSpecialName = 0x0400,
  HasDefault = 0x1000,
  Unused = 0xE9FF,
};

/// TypeAttributes (II.23.1.15): TypeDef.Flags and ExportedType.Flags.
enum class TypeAttributes : uint32_t {
  VisibilityMask = 0x00000007,
  NotPublic = 0x00000000,
  Public = 0x00000001,
  NestedPublic = 0x00000002,
  NestedPrivate = 0x00000003,
  NestedFamily = 0x00000004,
  NestedAssembly = 0x00000005,
  NestedFamANDAssem = 0x00000006,
  NestedFamORAssem = 0x00000007,
  LayoutMask = 0x00000018,
  AutoLayout = 0x00000000,
  SequentialLayout = 0x00000008,
  ExplicitLayout = 0x00000010,
  ClassSemanticsMask = 0x00000020,
  Class = 0x00000000,
  Interface = 0x00000020,
  Abstract = 0x00000080,
  Sealed = 0x00000100,
  SpecialName = 0x00000400,
  Import = 0x00001000,
  Serializable = 0x00002000,
  StringFormatMask = 0x00030000,
  AnsiClass = 0x00000000,
  UnicodeClass = 0x00010000,
  AutoClass = 0x00020000,
  CustomFormatClass = 0x00030000,
  CustomStringFormatMask = 0x00C00000,
  BeforeFieldInit = 0x00100000,
  RTSpecialName = 0x00000800,
  HasSecurity = 0x00040000,
  IsTypeForwarder = 0x00200000,
  WindowsRuntime = 0x00004000,  ///< CLR extension (corhdr.h tdWindowsRuntime)
};

template <> struct IsFlagEnum<AssemblyFlags> : std::true_type {};
template <> struct IsFlagEnum<EventAttributes> : std::true_type {};
template <> struct IsFlagEnum<FieldAttributes> : std::true_type {};
template <> struct IsFlagEnum<FileAttributes> : std::true_type {};
template <> struct IsFlagEnum<GenericParamAttributes> : std::true_type {};
template <> struct IsFlagEnum<PInvokeAttributes> : std::true_type {};
template <> struct IsFlagEnum<ManifestResourceAttributes> : std::true_type {};
template <> struct IsFlagEnum<MethodAttributes> : std::true_type {};
template <> struct IsFlagEnum<MethodImplAttributes> : std::true_type {};
template <> struct IsFlagEnum<MethodSemanticsAttributes> : std::true_type {};
template <> struct IsFlagEnum<ParamAttributes> : std::true_type {};
template <> struct IsFlagEnum<PropertyAttributes> : std::true_type {};
template <> struct IsFlagEnum<TypeAttributes> : std::true_type {};

}  // namespace cil::md
