// Unmanaged metadata ABI (IMetaDataImport/2, IMetaDataEmit/2, IMetaDataAssemblyImport/Emit, IMethodMalloc) for Linux x64.
//
// Declared from the documented ABI: method order, signatures and IIDs follow
// dotnet/runtime src/coreclr/inc/cor.h (metadata interfaces) and corprof.idl
// (IMethodMalloc); token typedefs follow corhdr.h. Every interface is sealed
// upstream, so the order below is final. Namespace cilprof.
#pragma once

#include "profiler/abi/com.h"

namespace cilprof {

// ---------------------------------------------------------------------------
// Tokens and metadata scalar types
// ---------------------------------------------------------------------------
using mdToken = ULONG32;
using mdModule = mdToken;
using mdTypeRef = mdToken;
using mdTypeDef = mdToken;
using mdFieldDef = mdToken;
using mdMethodDef = mdToken;
using mdParamDef = mdToken;
using mdInterfaceImpl = mdToken;
using mdMemberRef = mdToken;
using mdCustomAttribute = mdToken;
using mdPermission = mdToken;
using mdSignature = mdToken;
using mdEvent = mdToken;
using mdProperty = mdToken;
using mdModuleRef = mdToken;
using mdAssembly = mdToken;
using mdAssemblyRef = mdToken;
using mdFile = mdToken;
using mdExportedType = mdToken;
using mdManifestResource = mdToken;
using mdTypeSpec = mdToken;
using mdGenericParam = mdToken;
using mdMethodSpec = mdToken;
using mdGenericParamConstraint = mdToken;
using mdString = mdToken;
using mdCPToken = mdToken;
using RID = ULONG;

inline constexpr mdToken mdTokenNil = 0;

/// High byte of a token: the metadata table (or heap) it refers to.
enum CorTokenType : ULONG32 {
  mdtModule = 0x00000000,
  mdtTypeRef = 0x01000000,
  mdtTypeDef = 0x02000000,
  mdtFieldDef = 0x04000000,
  mdtMethodDef = 0x06000000,
  mdtParamDef = 0x08000000,
  mdtInterfaceImpl = 0x09000000,
  mdtMemberRef = 0x0a000000,
  mdtCustomAttribute = 0x0c000000,
  mdtPermission = 0x0e000000,
  mdtSignature = 0x11000000,
  mdtEvent = 0x14000000,
  mdtProperty = 0x17000000,
  mdtModuleRef = 0x1a000000,
  mdtTypeSpec = 0x1b000000,
  mdtAssembly = 0x20000000,
  mdtAssemblyRef = 0x23000000,
  mdtFile = 0x26000000,
  mdtExportedType = 0x27000000,
  mdtManifestResource = 0x28000000,
  mdtGenericParam = 0x2a000000,
  mdtMethodSpec = 0x2b000000,
  mdtGenericParamConstraint = 0x2c000000,
  mdtString = 0x70000000,
  mdtName = 0x71000000,
  mdtBaseType = 0x72000000,
};

constexpr ULONG32 TypeFromToken(mdToken tk) noexcept { return tk & 0xff000000u; }
constexpr RID RidFromToken(mdToken tk) noexcept { return tk & 0x00ffffffu; }
constexpr mdToken TokenFromRid(RID rid, ULONG32 type) noexcept { return rid | type; }
constexpr bool IsNilToken(mdToken tk) noexcept { return RidFromToken(tk) == 0; }

/// ECMA-335 element types (II.23.1.16). 4 bytes wide, as in the runtime.
enum CorElementType : ULONG32 {
  ELEMENT_TYPE_END = 0x00,
  ELEMENT_TYPE_VOID = 0x01,
  ELEMENT_TYPE_BOOLEAN = 0x02,
  ELEMENT_TYPE_CHAR = 0x03,
  ELEMENT_TYPE_I1 = 0x04,
  ELEMENT_TYPE_U1 = 0x05,
  ELEMENT_TYPE_I2 = 0x06,
  ELEMENT_TYPE_U2 = 0x07,
  ELEMENT_TYPE_I4 = 0x08,
  ELEMENT_TYPE_U4 = 0x09,
  ELEMENT_TYPE_I8 = 0x0a,
  ELEMENT_TYPE_U8 = 0x0b,
  ELEMENT_TYPE_R4 = 0x0c,
  ELEMENT_TYPE_R8 = 0x0d,
  ELEMENT_TYPE_STRING = 0x0e,
  ELEMENT_TYPE_PTR = 0x0f,
  ELEMENT_TYPE_BYREF = 0x10,
  ELEMENT_TYPE_VALUETYPE = 0x11,
  ELEMENT_TYPE_CLASS = 0x12,
  ELEMENT_TYPE_VAR = 0x13,
  ELEMENT_TYPE_ARRAY = 0x14,
  ELEMENT_TYPE_GENERICINST = 0x15,
  ELEMENT_TYPE_TYPEDBYREF = 0x16,
  ELEMENT_TYPE_I = 0x18,
  ELEMENT_TYPE_U = 0x19,
  ELEMENT_TYPE_FNPTR = 0x1b,
  ELEMENT_TYPE_OBJECT = 0x1c,
  ELEMENT_TYPE_SZARRAY = 0x1d,
  ELEMENT_TYPE_MVAR = 0x1e,
  ELEMENT_TYPE_CMOD_REQD = 0x1f,
  ELEMENT_TYPE_CMOD_OPT = 0x20,
  ELEMENT_TYPE_INTERNAL = 0x21,
  ELEMENT_TYPE_MODIFIER = 0x40,
  ELEMENT_TYPE_SENTINEL = 0x41,
  ELEMENT_TYPE_PINNED = 0x45,
};
static_assert(sizeof(CorElementType) == 4);

/// Opaque enumeration handle used by the Enum* methods; release with CloseEnum.
using HCORENUM = void*;

using COR_SIGNATURE = BYTE;
using PCOR_SIGNATURE = COR_SIGNATURE*;
using PCCOR_SIGNATURE = const COR_SIGNATURE*;
using MDUTF8CSTR = const char*;
using MDUTF8STR = char*;
/// Possibly unaligned constant blob returned by Get*Props.
using UVCP_CONSTANT = const void*;

/// Passed by value to GetSaveSize / GetDeltaSaveSize.
enum CorSaveSize : ULONG32 {
  cssAccurate = 0x0000,
  cssQuick = 0x0001,
  cssDiscardTransientCAs = 0x0002,
};

/// dwOpenFlags for ICorProfilerInfo::GetModuleMetaData (only these two are accepted there).
enum CorOpenFlags : DWORD {
  ofRead = 0x00000000,
  ofWrite = 0x00000001,
};

/// Field layout entry (GetClassLayout / SetClassLayout).
struct COR_FIELD_OFFSET {
  mdFieldDef ridOfField;
  ULONG ulOffset;
};
static_assert(sizeof(COR_FIELD_OFFSET) == 8);

struct OSINFO {
  DWORD dwOSPlatformId;
  DWORD dwOSMajorVersion;
  DWORD dwOSMinorVersion;
};
static_assert(sizeof(OSINFO) == 12);

/// Assembly version/culture block. LP64 layout: 56 bytes, with padding after each ULONG
/// that precedes a pointer (and at the end).
struct ASSEMBLYMETADATA {
  USHORT usMajorVersion;
  USHORT usMinorVersion;
  USHORT usBuildNumber;
  USHORT usRevisionNumber;
  LPWSTR szLocale;      // buffer (in: capacity cbLocale wide chars)
  ULONG cbLocale;       // in/out, in wide chars despite the name
  DWORD* rProcessor;
  ULONG ulProcessor;
  OSINFO* rOS;
  ULONG ulOS;
};
static_assert(sizeof(ASSEMBLYMETADATA) == 56);
static_assert(offsetof(ASSEMBLYMETADATA, szLocale) == 8);
static_assert(offsetof(ASSEMBLYMETADATA, cbLocale) == 16);
static_assert(offsetof(ASSEMBLYMETADATA, rProcessor) == 24);
static_assert(offsetof(ASSEMBLYMETADATA, ulProcessor) == 32);
static_assert(offsetof(ASSEMBLYMETADATA, rOS) == 40);
static_assert(offsetof(ASSEMBLYMETADATA, ulOS) == 48);

// Types only ever passed by pointer here; their layout is irrelevant to us.
struct COR_SECATTR;
class IStream;
class IMapToken;
class IMetaDataImport;
class IMetaDataAssemblyImport;
class IMetaDataAssemblyEmit;
class IMetaDataEmit;

// ---------------------------------------------------------------------------
// IIDs (cor.h, corprof.idl)
// ---------------------------------------------------------------------------
// {7DAC8207-D3AE-4C75-9B67-92801A497D44}
inline constexpr IID IID_IMetaDataImport{0x7dac8207, 0xd3ae, 0x4c75, 0x9b, 0x67, 0x92, 0x80, 0x1a, 0x49, 0x7d, 0x44};
// {FCE5EFA0-8BBA-4F8E-A036-8F2022B08466}
inline constexpr IID IID_IMetaDataImport2{0xfce5efa0, 0x8bba, 0x4f8e, 0xa0, 0x36, 0x8f, 0x20, 0x22, 0xb0, 0x84, 0x66};
// {BA3FEE4C-ECB9-4E41-83B7-183FA41CD859}
inline constexpr IID IID_IMetaDataEmit{0xba3fee4c, 0xecb9, 0x4e41, 0x83, 0xb7, 0x18, 0x3f, 0xa4, 0x1c, 0xd8, 0x59};
// {F5DD9950-F693-42E6-830E-7B833E8146A9}
inline constexpr IID IID_IMetaDataEmit2{0xf5dd9950, 0xf693, 0x42e6, 0x83, 0x0e, 0x7b, 0x83, 0x3e, 0x81, 0x46, 0xa9};
// {EE62470B-E94B-424E-9B7C-2F00C9249F93}
inline constexpr IID IID_IMetaDataAssemblyImport{0xee62470b, 0xe94b, 0x424e, 0x9b, 0x7c, 0x2f, 0x00, 0xc9, 0x24, 0x9f, 0x93};
// {211EF15B-5317-4438-B196-DEC87B887693}
inline constexpr IID IID_IMetaDataAssemblyEmit{0x211ef15b, 0x5317, 0x4438, 0xb1, 0x96, 0xde, 0xc8, 0x7b, 0x88, 0x76, 0x93};
// {A0EFB28B-6EE2-4D7B-B983-A75EF7BEEDB8}
inline constexpr IID IID_IMethodMalloc{0xa0efb28b, 0x6ee2, 0x4d7b, 0xb9, 0x83, 0xa7, 0x5e, 0xf7, 0xbe, 0xed, 0xb8};

// ---------------------------------------------------------------------------
// IMetaDataImport: 62 methods, slots 3..64 (order per cor.h).
// ---------------------------------------------------------------------------
class IMetaDataImport : public IUnknown {
 public:
  virtual void CloseEnum(HCORENUM hEnum) = 0;                                    // 3 (returns void)
  virtual HRESULT CountEnum(HCORENUM hEnum, ULONG* pulCount) = 0;                // 4
  virtual HRESULT ResetEnum(HCORENUM hEnum, ULONG ulPos) = 0;                    // 5
  virtual HRESULT EnumTypeDefs(HCORENUM* phEnum, mdTypeDef rTypeDefs[], ULONG cMax,
                               ULONG* pcTypeDefs) = 0;                            // 6
  virtual HRESULT EnumInterfaceImpls(HCORENUM* phEnum, mdTypeDef td, mdInterfaceImpl rImpls[],
                                     ULONG cMax, ULONG* pcImpls) = 0;             // 7
  virtual HRESULT EnumTypeRefs(HCORENUM* phEnum, mdTypeRef rTypeRefs[], ULONG cMax,
                               ULONG* pcTypeRefs) = 0;                            // 8
  virtual HRESULT FindTypeDefByName(LPCWSTR szTypeDef, mdToken tkEnclosingClass,
                                    mdTypeDef* ptd) = 0;                          // 9
  virtual HRESULT GetScopeProps(LPWSTR szName, ULONG cchName, ULONG* pchName,
                                GUID* pmvid) = 0;                                 // 10
  virtual HRESULT GetModuleFromScope(mdModule* pmd) = 0;                          // 11
  virtual HRESULT GetTypeDefProps(mdTypeDef td, LPWSTR szTypeDef, ULONG cchTypeDef,
                                  ULONG* pchTypeDef, DWORD* pdwTypeDefFlags,
                                  mdToken* ptkExtends) = 0;                       // 12
  virtual HRESULT GetInterfaceImplProps(mdInterfaceImpl iiImpl, mdTypeDef* pClass,
                                        mdToken* ptkIface) = 0;                   // 13
  virtual HRESULT GetTypeRefProps(mdTypeRef tr, mdToken* ptkResolutionScope, LPWSTR szName,
                                  ULONG cchName, ULONG* pchName) = 0;             // 14
  virtual HRESULT ResolveTypeRef(mdTypeRef tr, REFIID riid, IUnknown** ppIScope,
                                 mdTypeDef* ptd) = 0;                             // 15
  virtual HRESULT EnumMembers(HCORENUM* phEnum, mdTypeDef cl, mdToken rMembers[], ULONG cMax,
                              ULONG* pcTokens) = 0;                               // 16
  virtual HRESULT EnumMembersWithName(HCORENUM* phEnum, mdTypeDef cl, LPCWSTR szName,
                                      mdToken rMembers[], ULONG cMax,
                                      ULONG* pcTokens) = 0;                       // 17
  virtual HRESULT EnumMethods(HCORENUM* phEnum, mdTypeDef cl, mdMethodDef rMethods[], ULONG cMax,
                              ULONG* pcTokens) = 0;                               // 18
  virtual HRESULT EnumMethodsWithName(HCORENUM* phEnum, mdTypeDef cl, LPCWSTR szName,
                                      mdMethodDef rMethods[], ULONG cMax,
                                      ULONG* pcTokens) = 0;                       // 19
  virtual HRESULT EnumFields(HCORENUM* phEnum, mdTypeDef cl, mdFieldDef rFields[], ULONG cMax,
                             ULONG* pcTokens) = 0;                                // 20
  virtual HRESULT EnumFieldsWithName(HCORENUM* phEnum, mdTypeDef cl, LPCWSTR szName,
                                     mdFieldDef rFields[], ULONG cMax,
                                     ULONG* pcTokens) = 0;                        // 21
  virtual HRESULT EnumParams(HCORENUM* phEnum, mdMethodDef mb, mdParamDef rParams[], ULONG cMax,
                             ULONG* pcTokens) = 0;                                // 22
  virtual HRESULT EnumMemberRefs(HCORENUM* phEnum, mdToken tkParent, mdMemberRef rMemberRefs[],
                                 ULONG cMax, ULONG* pcTokens) = 0;                // 23
  virtual HRESULT EnumMethodImpls(HCORENUM* phEnum, mdTypeDef td, mdToken rMethodBody[],
                                  mdToken rMethodDecl[], ULONG cMax,
                                  ULONG* pcTokens) = 0;                           // 24
  virtual HRESULT EnumPermissionSets(HCORENUM* phEnum, mdToken tk, DWORD dwActions,
                                     mdPermission rPermission[], ULONG cMax,
                                     ULONG* pcTokens) = 0;                        // 25
  virtual HRESULT FindMember(mdTypeDef td, LPCWSTR szName, PCCOR_SIGNATURE pvSigBlob,
                             ULONG cbSigBlob, mdToken* pmb) = 0;                  // 26
  virtual HRESULT FindMethod(mdTypeDef td, LPCWSTR szName, PCCOR_SIGNATURE pvSigBlob,
                             ULONG cbSigBlob, mdMethodDef* pmb) = 0;              // 27
  virtual HRESULT FindField(mdTypeDef td, LPCWSTR szName, PCCOR_SIGNATURE pvSigBlob,
                            ULONG cbSigBlob, mdFieldDef* pmb) = 0;                // 28
  virtual HRESULT FindMemberRef(mdTypeRef td, LPCWSTR szName, PCCOR_SIGNATURE pvSigBlob,
                                ULONG cbSigBlob, mdMemberRef* pmr) = 0;           // 29
  virtual HRESULT GetMethodProps(mdMethodDef mb, mdTypeDef* pClass, LPWSTR szMethod,
                                 ULONG cchMethod, ULONG* pchMethod, DWORD* pdwAttr,
                                 PCCOR_SIGNATURE* ppvSigBlob, ULONG* pcbSigBlob,
                                 ULONG* pulCodeRVA, DWORD* pdwImplFlags) = 0;     // 30
  virtual HRESULT GetMemberRefProps(mdMemberRef mr, mdToken* ptk, LPWSTR szMember,
                                    ULONG cchMember, ULONG* pchMember,
                                    PCCOR_SIGNATURE* ppvSigBlob, ULONG* pbSig) = 0;  // 31
  virtual HRESULT EnumProperties(HCORENUM* phEnum, mdTypeDef td, mdProperty rProperties[],
                                 ULONG cMax, ULONG* pcProperties) = 0;            // 32
  virtual HRESULT EnumEvents(HCORENUM* phEnum, mdTypeDef td, mdEvent rEvents[], ULONG cMax,
                             ULONG* pcEvents) = 0;                                // 33
  virtual HRESULT GetEventProps(mdEvent ev, mdTypeDef* pClass, LPCWSTR szEvent, ULONG cchEvent,
                                ULONG* pchEvent, DWORD* pdwEventFlags, mdToken* ptkEventType,
                                mdMethodDef* pmdAddOn, mdMethodDef* pmdRemoveOn,
                                mdMethodDef* pmdFire, mdMethodDef rmdOtherMethod[], ULONG cMax,
                                ULONG* pcOtherMethod) = 0;                        // 34
  virtual HRESULT EnumMethodSemantics(HCORENUM* phEnum, mdMethodDef mb, mdToken rEventProp[],
                                      ULONG cMax, ULONG* pcEventProp) = 0;        // 35
  virtual HRESULT GetMethodSemantics(mdMethodDef mb, mdToken tkEventProp,
                                     DWORD* pdwSemanticsFlags) = 0;               // 36
  virtual HRESULT GetClassLayout(mdTypeDef td, DWORD* pdwPackSize, COR_FIELD_OFFSET rFieldOffset[],
                                 ULONG cMax, ULONG* pcFieldOffset,
                                 ULONG* pulClassSize) = 0;                        // 37
  virtual HRESULT GetFieldMarshal(mdToken tk, PCCOR_SIGNATURE* ppvNativeType,
                                  ULONG* pcbNativeType) = 0;                      // 38
  virtual HRESULT GetRVA(mdToken tk, ULONG* pulCodeRVA, DWORD* pdwImplFlags) = 0;  // 39
  virtual HRESULT GetPermissionSetProps(mdPermission pm, DWORD* pdwAction,
                                        const void** ppvPermission,
                                        ULONG* pcbPermission) = 0;                // 40
  virtual HRESULT GetSigFromToken(mdSignature mdSig, PCCOR_SIGNATURE* ppvSig,
                                  ULONG* pcbSig) = 0;                             // 41
  virtual HRESULT GetModuleRefProps(mdModuleRef mur, LPWSTR szName, ULONG cchName,
                                    ULONG* pchName) = 0;                          // 42
  virtual HRESULT EnumModuleRefs(HCORENUM* phEnum, mdModuleRef rModuleRefs[], ULONG cmax,
                                 ULONG* pcModuleRefs) = 0;                        // 43
  virtual HRESULT GetTypeSpecFromToken(mdTypeSpec typespec, PCCOR_SIGNATURE* ppvSig,
                                       ULONG* pcbSig) = 0;                        // 44
  virtual HRESULT GetNameFromToken(mdToken tk, MDUTF8CSTR* pszUtf8NamePtr) = 0;  // 45
  virtual HRESULT EnumUnresolvedMethods(HCORENUM* phEnum, mdToken rMethods[], ULONG cMax,
                                        ULONG* pcTokens) = 0;                     // 46
  virtual HRESULT GetUserString(mdString stk, LPWSTR szString, ULONG cchString,
                                ULONG* pchString) = 0;                            // 47
  virtual HRESULT GetPinvokeMap(mdToken tk, DWORD* pdwMappingFlags, LPWSTR szImportName,
                                ULONG cchImportName, ULONG* pchImportName,
                                mdModuleRef* pmrImportDLL) = 0;                   // 48
  virtual HRESULT EnumSignatures(HCORENUM* phEnum, mdSignature rSignatures[], ULONG cmax,
                                 ULONG* pcSignatures) = 0;                        // 49
  virtual HRESULT EnumTypeSpecs(HCORENUM* phEnum, mdTypeSpec rTypeSpecs[], ULONG cmax,
                                ULONG* pcTypeSpecs) = 0;                          // 50
  virtual HRESULT EnumUserStrings(HCORENUM* phEnum, mdString rStrings[], ULONG cmax,
                                  ULONG* pcStrings) = 0;                          // 51
  virtual HRESULT GetParamForMethodIndex(mdMethodDef md, ULONG ulParamSeq,
                                         mdParamDef* ppd) = 0;                    // 52
  virtual HRESULT EnumCustomAttributes(HCORENUM* phEnum, mdToken tk, mdToken tkType,
                                       mdCustomAttribute rCustomAttributes[], ULONG cMax,
                                       ULONG* pcCustomAttributes) = 0;            // 53
  virtual HRESULT GetCustomAttributeProps(mdCustomAttribute cv, mdToken* ptkObj, mdToken* ptkType,
                                          const void** ppBlob, ULONG* pcbSize) = 0;  // 54
  virtual HRESULT FindTypeRef(mdToken tkResolutionScope, LPCWSTR szName,
                              mdTypeRef* ptr) = 0;                                // 55
  virtual HRESULT GetMemberProps(mdToken mb, mdTypeDef* pClass, LPWSTR szMember, ULONG cchMember,
                                 ULONG* pchMember, DWORD* pdwAttr, PCCOR_SIGNATURE* ppvSigBlob,
                                 ULONG* pcbSigBlob, ULONG* pulCodeRVA, DWORD* pdwImplFlags,
                                 DWORD* pdwCPlusTypeFlag, UVCP_CONSTANT* ppValue,
                                 ULONG* pcchValue) = 0;                           // 56
  virtual HRESULT GetFieldProps(mdFieldDef mb, mdTypeDef* pClass, LPWSTR szField, ULONG cchField,
                                ULONG* pchField, DWORD* pdwAttr, PCCOR_SIGNATURE* ppvSigBlob,
                                ULONG* pcbSigBlob, DWORD* pdwCPlusTypeFlag,
                                UVCP_CONSTANT* ppValue, ULONG* pcchValue) = 0;    // 57
  virtual HRESULT GetPropertyProps(mdProperty prop, mdTypeDef* pClass, LPCWSTR szProperty,
                                   ULONG cchProperty, ULONG* pchProperty, DWORD* pdwPropFlags,
                                   PCCOR_SIGNATURE* ppvSig, ULONG* pbSig,
                                   DWORD* pdwCPlusTypeFlag, UVCP_CONSTANT* ppDefaultValue,
                                   ULONG* pcchDefaultValue, mdMethodDef* pmdSetter,
                                   mdMethodDef* pmdGetter, mdMethodDef rmdOtherMethod[],
                                   ULONG cMax, ULONG* pcOtherMethod) = 0;         // 58
  virtual HRESULT GetParamProps(mdParamDef tk, mdMethodDef* pmd, ULONG* pulSequence,
                                LPWSTR szName, ULONG cchName, ULONG* pchName, DWORD* pdwAttr,
                                DWORD* pdwCPlusTypeFlag, UVCP_CONSTANT* ppValue,
                                ULONG* pcchValue) = 0;                            // 59
  virtual HRESULT GetCustomAttributeByName(mdToken tkObj, LPCWSTR szName, const void** ppData,
                                           ULONG* pcbData) = 0;                   // 60
  virtual BOOL IsValidToken(mdToken tk) = 0;                                      // 61 (returns BOOL)
  virtual HRESULT GetNestedClassProps(mdTypeDef tdNestedClass,
                                      mdTypeDef* ptdEnclosingClass) = 0;          // 62
  virtual HRESULT GetNativeCallConvFromSig(const void* pvSig, ULONG cbSig,
                                           ULONG* pCallConv) = 0;                 // 63
  virtual HRESULT IsGlobal(mdToken pd, int* pbGlobal) = 0;                        // 64
};

// ---------------------------------------------------------------------------
// IMetaDataImport2: 8 methods, slots 65..72.
// ---------------------------------------------------------------------------
class IMetaDataImport2 : public IMetaDataImport {
 public:
  virtual HRESULT EnumGenericParams(HCORENUM* phEnum, mdToken tk, mdGenericParam rGenericParams[],
                                    ULONG cMax, ULONG* pcGenericParams) = 0;      // 65
  virtual HRESULT GetGenericParamProps(mdGenericParam gp, ULONG* pulParamSeq, DWORD* pdwParamFlags,
                                       mdToken* ptOwner, DWORD* reserved, LPWSTR wzname,
                                       ULONG cchName, ULONG* pchName) = 0;        // 66
  virtual HRESULT GetMethodSpecProps(mdMethodSpec mi, mdToken* tkParent,
                                     PCCOR_SIGNATURE* ppvSigBlob, ULONG* pcbSigBlob) = 0;  // 67
  virtual HRESULT EnumGenericParamConstraints(HCORENUM* phEnum, mdGenericParam tk,
                                              mdGenericParamConstraint rGenericParamConstraints[],
                                              ULONG cMax,
                                              ULONG* pcGenericParamConstraints) = 0;  // 68
  virtual HRESULT GetGenericParamConstraintProps(mdGenericParamConstraint gpc,
                                                 mdGenericParam* ptGenericParam,
                                                 mdToken* ptkConstraintType) = 0;  // 69
  virtual HRESULT GetPEKind(DWORD* pdwPEKind, DWORD* pdwMAchine) = 0;             // 70
  virtual HRESULT GetVersionString(LPWSTR pwzBuf, DWORD ccBufSize, DWORD* pccBufSize) = 0;  // 71
  virtual HRESULT EnumMethodSpecs(HCORENUM* phEnum, mdToken tk, mdMethodSpec rMethodSpecs[],
                                  ULONG cMax, ULONG* pcMethodSpecs) = 0;          // 72
};

// ---------------------------------------------------------------------------
// IMetaDataEmit: 49 methods, slots 3..51 (order per cor.h).
// ---------------------------------------------------------------------------
class IMetaDataEmit : public IUnknown {
 public:
  virtual HRESULT SetModuleProps(LPCWSTR szName) = 0;                             // 3
  virtual HRESULT Save(LPCWSTR szFile, DWORD dwSaveFlags) = 0;                    // 4
  virtual HRESULT SaveToStream(IStream* pIStream, DWORD dwSaveFlags) = 0;         // 5
  virtual HRESULT GetSaveSize(CorSaveSize fSave, DWORD* pdwSaveSize) = 0;         // 6
  virtual HRESULT DefineTypeDef(LPCWSTR szTypeDef, DWORD dwTypeDefFlags, mdToken tkExtends,
                                mdToken rtkImplements[], mdTypeDef* ptd) = 0;     // 7
  virtual HRESULT DefineNestedType(LPCWSTR szTypeDef, DWORD dwTypeDefFlags, mdToken tkExtends,
                                   mdToken rtkImplements[], mdTypeDef tdEncloser,
                                   mdTypeDef* ptd) = 0;                           // 8
  virtual HRESULT SetHandler(IUnknown* pUnk) = 0;                                 // 9
  virtual HRESULT DefineMethod(mdTypeDef td, LPCWSTR szName, DWORD dwMethodFlags,
                               PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob, ULONG ulCodeRVA,
                               DWORD dwImplFlags, mdMethodDef* pmd) = 0;          // 10
  virtual HRESULT DefineMethodImpl(mdTypeDef td, mdToken tkBody, mdToken tkDecl) = 0;  // 11
  virtual HRESULT DefineTypeRefByName(mdToken tkResolutionScope, LPCWSTR szName,
                                      mdTypeRef* ptr) = 0;                        // 12
  virtual HRESULT DefineImportType(IMetaDataAssemblyImport* pAssemImport, const void* pbHashValue,
                                   ULONG cbHashValue, IMetaDataImport* pImport,
                                   mdTypeDef tdImport, IMetaDataAssemblyEmit* pAssemEmit,
                                   mdTypeRef* ptr) = 0;                           // 13
  virtual HRESULT DefineMemberRef(mdToken tkImport, LPCWSTR szName, PCCOR_SIGNATURE pvSigBlob,
                                  ULONG cbSigBlob, mdMemberRef* pmr) = 0;         // 14
  virtual HRESULT DefineImportMember(IMetaDataAssemblyImport* pAssemImport,
                                     const void* pbHashValue, ULONG cbHashValue,
                                     IMetaDataImport* pImport, mdToken mbMember,
                                     IMetaDataAssemblyEmit* pAssemEmit, mdToken tkParent,
                                     mdMemberRef* pmr) = 0;                       // 15
  virtual HRESULT DefineEvent(mdTypeDef td, LPCWSTR szEvent, DWORD dwEventFlags,
                              mdToken tkEventType, mdMethodDef mdAddOn, mdMethodDef mdRemoveOn,
                              mdMethodDef mdFire, mdMethodDef rmdOtherMethods[],
                              mdEvent* pmdEvent) = 0;                             // 16
  virtual HRESULT SetClassLayout(mdTypeDef td, DWORD dwPackSize, COR_FIELD_OFFSET rFieldOffsets[],
                                 ULONG ulClassSize) = 0;                          // 17
  virtual HRESULT DeleteClassLayout(mdTypeDef td) = 0;                            // 18
  virtual HRESULT SetFieldMarshal(mdToken tk, PCCOR_SIGNATURE pvNativeType,
                                  ULONG cbNativeType) = 0;                        // 19
  virtual HRESULT DeleteFieldMarshal(mdToken tk) = 0;                             // 20
  virtual HRESULT DefinePermissionSet(mdToken tk, DWORD dwAction, const void* pvPermission,
                                      ULONG cbPermission, mdPermission* ppm) = 0;  // 21
  virtual HRESULT SetRVA(mdMethodDef md, ULONG ulRVA) = 0;                        // 22
  virtual HRESULT GetTokenFromSig(PCCOR_SIGNATURE pvSig, ULONG cbSig,
                                  mdSignature* pmsig) = 0;                        // 23
  virtual HRESULT DefineModuleRef(LPCWSTR szName, mdModuleRef* pmur) = 0;         // 24
  virtual HRESULT SetParent(mdMemberRef mr, mdToken tk) = 0;                      // 25
  virtual HRESULT GetTokenFromTypeSpec(PCCOR_SIGNATURE pvSig, ULONG cbSig,
                                       mdTypeSpec* ptypespec) = 0;                // 26
  virtual HRESULT SaveToMemory(void* pbData, ULONG cbData) = 0;                   // 27
  virtual HRESULT DefineUserString(LPCWSTR szString, ULONG cchString, mdString* pstk) = 0;  // 28
  virtual HRESULT DeleteToken(mdToken tkObj) = 0;                                 // 29
  virtual HRESULT SetMethodProps(mdMethodDef md, DWORD dwMethodFlags, ULONG ulCodeRVA,
                                 DWORD dwImplFlags) = 0;                          // 30
  virtual HRESULT SetTypeDefProps(mdTypeDef td, DWORD dwTypeDefFlags, mdToken tkExtends,
                                  mdToken rtkImplements[]) = 0;                   // 31
  virtual HRESULT SetEventProps(mdEvent ev, DWORD dwEventFlags, mdToken tkEventType,
                                mdMethodDef mdAddOn, mdMethodDef mdRemoveOn, mdMethodDef mdFire,
                                mdMethodDef rmdOtherMethods[]) = 0;               // 32
  virtual HRESULT SetPermissionSetProps(mdToken tk, DWORD dwAction, const void* pvPermission,
                                        ULONG cbPermission, mdPermission* ppm) = 0;  // 33
  virtual HRESULT DefinePinvokeMap(mdToken tk, DWORD dwMappingFlags, LPCWSTR szImportName,
                                   mdModuleRef mrImportDLL) = 0;                  // 34
  virtual HRESULT SetPinvokeMap(mdToken tk, DWORD dwMappingFlags, LPCWSTR szImportName,
                                mdModuleRef mrImportDLL) = 0;                     // 35
  virtual HRESULT DeletePinvokeMap(mdToken tk) = 0;                               // 36
  virtual HRESULT DefineCustomAttribute(mdToken tkOwner, mdToken tkCtor,
                                        const void* pCustomAttribute, ULONG cbCustomAttribute,
                                        mdCustomAttribute* pcv) = 0;              // 37
  virtual HRESULT SetCustomAttributeValue(mdCustomAttribute pcv, const void* pCustomAttribute,
                                          ULONG cbCustomAttribute) = 0;           // 38
  virtual HRESULT DefineField(mdTypeDef td, LPCWSTR szName, DWORD dwFieldFlags,
                              PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob, DWORD dwCPlusTypeFlag,
                              const void* pValue, ULONG cchValue, mdFieldDef* pmd) = 0;  // 39
  virtual HRESULT DefineProperty(mdTypeDef td, LPCWSTR szProperty, DWORD dwPropFlags,
                                 PCCOR_SIGNATURE pvSig, ULONG cbSig, DWORD dwCPlusTypeFlag,
                                 const void* pValue, ULONG cchValue, mdMethodDef mdSetter,
                                 mdMethodDef mdGetter, mdMethodDef rmdOtherMethods[],
                                 mdProperty* pmdProp) = 0;                        // 40
  virtual HRESULT DefineParam(mdMethodDef md, ULONG ulParamSeq, LPCWSTR szName, DWORD dwParamFlags,
                              DWORD dwCPlusTypeFlag, const void* pValue, ULONG cchValue,
                              mdParamDef* ppd) = 0;                               // 41
  virtual HRESULT SetFieldProps(mdFieldDef fd, DWORD dwFieldFlags, DWORD dwCPlusTypeFlag,
                                const void* pValue, ULONG cchValue) = 0;          // 42
  virtual HRESULT SetPropertyProps(mdProperty pr, DWORD dwPropFlags, DWORD dwCPlusTypeFlag,
                                   const void* pValue, ULONG cchValue, mdMethodDef mdSetter,
                                   mdMethodDef mdGetter, mdMethodDef rmdOtherMethods[]) = 0;  // 43
  virtual HRESULT SetParamProps(mdParamDef pd, LPCWSTR szName, DWORD dwParamFlags,
                                DWORD dwCPlusTypeFlag, const void* pValue,
                                ULONG cchValue) = 0;                              // 44
  virtual HRESULT DefineSecurityAttributeSet(mdToken tkObj, COR_SECATTR rSecAttrs[],
                                             ULONG cSecAttrs, ULONG* pulErrorAttr) = 0;  // 45
  virtual HRESULT ApplyEditAndContinue(IUnknown* pImport) = 0;                    // 46
  virtual HRESULT TranslateSigWithScope(IMetaDataAssemblyImport* pAssemImport,
                                        const void* pbHashValue, ULONG cbHashValue,
                                        IMetaDataImport* import, PCCOR_SIGNATURE pbSigBlob,
                                        ULONG cbSigBlob, IMetaDataAssemblyEmit* pAssemEmit,
                                        IMetaDataEmit* emit, PCOR_SIGNATURE pvTranslatedSig,
                                        ULONG cbTranslatedSigMax,
                                        ULONG* pcbTranslatedSig) = 0;             // 47
  virtual HRESULT SetMethodImplFlags(mdMethodDef md, DWORD dwImplFlags) = 0;      // 48
  virtual HRESULT SetFieldRVA(mdFieldDef fd, ULONG ulRVA) = 0;                    // 49
  virtual HRESULT Merge(IMetaDataImport* pImport, IMapToken* pHostMapToken,
                        IUnknown* pHandler) = 0;                                  // 50
  virtual HRESULT MergeEnd() = 0;                                                 // 51
};

// ---------------------------------------------------------------------------
// IMetaDataEmit2: 8 methods, slots 52..59.
// ---------------------------------------------------------------------------
class IMetaDataEmit2 : public IMetaDataEmit {
 public:
  virtual HRESULT DefineMethodSpec(mdToken tkParent, PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob,
                                   mdMethodSpec* pmi) = 0;                        // 52
  virtual HRESULT GetDeltaSaveSize(CorSaveSize fSave, DWORD* pdwSaveSize) = 0;    // 53
  virtual HRESULT SaveDelta(LPCWSTR szFile, DWORD dwSaveFlags) = 0;               // 54
  virtual HRESULT SaveDeltaToStream(IStream* pIStream, DWORD dwSaveFlags) = 0;    // 55
  virtual HRESULT SaveDeltaToMemory(void* pbData, ULONG cbData) = 0;              // 56
  virtual HRESULT DefineGenericParam(mdToken tk, ULONG ulParamSeq, DWORD dwParamFlags,
                                     LPCWSTR szname, DWORD reserved, mdToken rtkConstraints[],
                                     mdGenericParam* pgp) = 0;                    // 57
  virtual HRESULT SetGenericParamProps(mdGenericParam gp, DWORD dwParamFlags, LPCWSTR szName,
                                       DWORD reserved, mdToken rtkConstraints[]) = 0;  // 58
  virtual HRESULT ResetENCLog() = 0;                                              // 59
};

// ---------------------------------------------------------------------------
// IMetaDataAssemblyEmit: 10 methods, slots 3..12.
// ---------------------------------------------------------------------------
class IMetaDataAssemblyEmit : public IUnknown {
 public:
  virtual HRESULT DefineAssembly(const void* pbPublicKey, ULONG cbPublicKey, ULONG ulHashAlgId,
                                 LPCWSTR szName, const ASSEMBLYMETADATA* pMetaData,
                                 DWORD dwAssemblyFlags, mdAssembly* pma) = 0;     // 3
  virtual HRESULT DefineAssemblyRef(const void* pbPublicKeyOrToken, ULONG cbPublicKeyOrToken,
                                    LPCWSTR szName, const ASSEMBLYMETADATA* pMetaData,
                                    const void* pbHashValue, ULONG cbHashValue,
                                    DWORD dwAssemblyRefFlags, mdAssemblyRef* pmdar) = 0;  // 4
  virtual HRESULT DefineFile(LPCWSTR szName, const void* pbHashValue, ULONG cbHashValue,
                             DWORD dwFileFlags, mdFile* pmdf) = 0;                // 5
  virtual HRESULT DefineExportedType(LPCWSTR szName, mdToken tkImplementation,
                                     mdTypeDef tkTypeDef, DWORD dwExportedTypeFlags,
                                     mdExportedType* pmdct) = 0;                  // 6
  virtual HRESULT DefineManifestResource(LPCWSTR szName, mdToken tkImplementation, DWORD dwOffset,
                                         DWORD dwResourceFlags,
                                         mdManifestResource* pmdmr) = 0;          // 7
  virtual HRESULT SetAssemblyProps(mdAssembly pma, const void* pbPublicKey, ULONG cbPublicKey,
                                   ULONG ulHashAlgId, LPCWSTR szName,
                                   const ASSEMBLYMETADATA* pMetaData,
                                   DWORD dwAssemblyFlags) = 0;                    // 8
  virtual HRESULT SetAssemblyRefProps(mdAssemblyRef ar, const void* pbPublicKeyOrToken,
                                      ULONG cbPublicKeyOrToken, LPCWSTR szName,
                                      const ASSEMBLYMETADATA* pMetaData, const void* pbHashValue,
                                      ULONG cbHashValue, DWORD dwAssemblyRefFlags) = 0;  // 9
  virtual HRESULT SetFileProps(mdFile file, const void* pbHashValue, ULONG cbHashValue,
                               DWORD dwFileFlags) = 0;                            // 10
  virtual HRESULT SetExportedTypeProps(mdExportedType ct, mdToken tkImplementation,
                                       mdTypeDef tkTypeDef, DWORD dwExportedTypeFlags) = 0;  // 11
  virtual HRESULT SetManifestResourceProps(mdManifestResource mr, mdToken tkImplementation,
                                           DWORD dwOffset, DWORD dwResourceFlags) = 0;  // 12
};

// ---------------------------------------------------------------------------
// IMetaDataAssemblyImport: 14 methods, slots 3..16.
// ---------------------------------------------------------------------------
class IMetaDataAssemblyImport : public IUnknown {
 public:
  virtual HRESULT GetAssemblyProps(mdAssembly mda, const void** ppbPublicKey, ULONG* pcbPublicKey,
                                   ULONG* pulHashAlgId, LPWSTR szName, ULONG cchName,
                                   ULONG* pchName, ASSEMBLYMETADATA* pMetaData,
                                   DWORD* pdwAssemblyFlags) = 0;                  // 3
  virtual HRESULT GetAssemblyRefProps(mdAssemblyRef mdar, const void** ppbPublicKeyOrToken,
                                      ULONG* pcbPublicKeyOrToken, LPWSTR szName, ULONG cchName,
                                      ULONG* pchName, ASSEMBLYMETADATA* pMetaData,
                                      const void** ppbHashValue, ULONG* pcbHashValue,
                                      DWORD* pdwAssemblyRefFlags) = 0;            // 4
  virtual HRESULT GetFileProps(mdFile mdf, LPWSTR szName, ULONG cchName, ULONG* pchName,
                               const void** ppbHashValue, ULONG* pcbHashValue,
                               DWORD* pdwFileFlags) = 0;                          // 5
  virtual HRESULT GetExportedTypeProps(mdExportedType mdct, LPWSTR szName, ULONG cchName,
                                       ULONG* pchName, mdToken* ptkImplementation,
                                       mdTypeDef* ptkTypeDef,
                                       DWORD* pdwExportedTypeFlags) = 0;          // 6
  virtual HRESULT GetManifestResourceProps(mdManifestResource mdmr, LPWSTR szName, ULONG cchName,
                                           ULONG* pchName, mdToken* ptkImplementation,
                                           DWORD* pdwOffset, DWORD* pdwResourceFlags) = 0;  // 7
  virtual HRESULT EnumAssemblyRefs(HCORENUM* phEnum, mdAssemblyRef rAssemblyRefs[], ULONG cMax,
                                   ULONG* pcTokens) = 0;                          // 8
  virtual HRESULT EnumFiles(HCORENUM* phEnum, mdFile rFiles[], ULONG cMax, ULONG* pcTokens) = 0;  // 9
  virtual HRESULT EnumExportedTypes(HCORENUM* phEnum, mdExportedType rExportedTypes[], ULONG cMax,
                                    ULONG* pcTokens) = 0;                         // 10
  virtual HRESULT EnumManifestResources(HCORENUM* phEnum, mdManifestResource rManifestResources[],
                                        ULONG cMax, ULONG* pcTokens) = 0;         // 11
  virtual HRESULT GetAssemblyFromScope(mdAssembly* ptkAssembly) = 0;              // 12
  virtual HRESULT FindExportedTypeByName(LPCWSTR szName, mdToken mdtExportedType,
                                         mdExportedType* ptkExportedType) = 0;    // 13
  virtual HRESULT FindManifestResourceByName(LPCWSTR szName,
                                             mdManifestResource* ptkManifestResource) = 0;  // 14
  virtual void CloseEnum(HCORENUM hEnum) = 0;                                     // 15 (returns void)
  virtual HRESULT FindAssembliesByName(LPCWSTR szAppBase, LPCWSTR szPrivateBin,
                                       LPCWSTR szAssemblyName, IUnknown* ppIUnk[], ULONG cMax,
                                       ULONG* pcAssemblies) = 0;                  // 16
};

// ---------------------------------------------------------------------------
// IMethodMalloc (corprof.idl): 1 method, slot 3. Memory cannot be freed.
// ---------------------------------------------------------------------------
class IMethodMalloc : public IUnknown {
 public:
  virtual PVOID Alloc(ULONG cb) = 0;  // 3 (returns the pointer, not an HRESULT)
};

}  // namespace cilprof
