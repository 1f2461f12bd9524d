// Args mode: enter, leave and tail-call hooks (ELT3 with argument and return value info) on the
// methods the filters select, chosen per function by a FunctionIDMapper2; one log line per call
// with the argument values, one per return with the value, or the exception that unwound the
// method (the exception callbacks), and the time since its entry:
//   [T1] enter Ns.Type::Method(this=Ns.Type, a=1, s="text", o=null)
//   [T1] leave Ns.Type::Method -> 42 (3.1 us)
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "metadata/signature.h"
#include "profiler/line_log.h"
#include "profiler/profiler_base.h"
#include "profiler/thread_tags.h"

namespace cil::profiler {

class ArgsProfiler final : public ProfilerBase {
 public:
  explicit ArgsProfiler(Config config) : ProfilerBase(std::move(config)) {}

  HRESULT JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) override;
  HRESULT JITInlining(FunctionID caller, FunctionID callee, BOOL* should_inline) override;
  HRESULT ExceptionThrown(ObjectID thrown) override;
  HRESULT ExceptionUnwindFunctionEnter(FunctionID function) override;
  HRESULT ExceptionUnwindFunctionLeave() override;
  HRESULT ExceptionCatcherEnter(FunctionID function, ObjectID object) override;

  /// A hooked method, decoded once when the runtime asks the mapper about it.
  struct Param {
    std::string name;
    md::TypeSig type;
    std::string type_name;  ///< value types: the name shown for them
    bool is_enum = false;   ///< a value type of the same module that derives from System.Enum
  };
  struct Hooked {
    ArgsProfiler* owner = nullptr;
    FunctionID id = 0;
    std::string name;
    bool has_this = false;
    bool this_is_value = false;  ///< `this` is a managed pointer to a struct
    std::string this_type;
    std::vector<Param> params;
    bool returns = false;  ///< not void: the leave line shows `ret`
    Param ret;             ///< the return type, as a parameter's
    bool generic = false;  ///< a parameter's or the return type is a type parameter (needs frame info)
    bool vararg = false;
    std::shared_ptr<ModuleEntry> module;
  };

  /// FunctionIDMapper2: hooks a function when the filters select its method.
  UINT_PTR map(FunctionID function, BOOL* hook);
  /// FunctionEnter3WithInfo.
  void enter(const Hooked& hooked, COR_PRF_ELT_INFO elt);
  /// FunctionLeave3WithInfo.
  void leave(const Hooked& hooked, COR_PRF_ELT_INFO elt);
  /// FunctionTailcall3WithInfo: the method leaves by a tail call (its frame is replaced).
  void tailcall(const Hooked& hooked);

 protected:
  std::pair<DWORD, DWORD> event_mask() const override;
  Status start() override;
  void finish() override;

 private:
  bool selects(FunctionID function);
  std::unique_ptr<Hooked> describe(FunctionID function, ModuleEntry& entry, mdMethodDef token);
  std::string value_text(const md::TypeSig& type, const Param* param, const uint8_t* data, size_t size,
                         const std::vector<ClassID>& class_args, const std::vector<ClassID>& method_args);
  std::string class_value_text(ClassID klass, const uint8_t* data, size_t size);
  std::string object_text(ObjectID object);
  bool is_value_class(ClassID klass);
  /// Type arguments of the class and method of `function` in `frame`.
  void generic_args(FunctionID function, COR_PRF_FRAME_INFO frame, std::vector<ClassID>& class_args,
                    std::vector<ClassID>& method_args);

  std::unique_ptr<LineLog> log_;
  std::unique_ptr<ThreadTags> threads_;
  ULONG string_length_offset_ = 0, string_buffer_offset_ = 0;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Hooked>> hooked_;  ///< alive until the process ends
  std::map<std::pair<ModuleID, mdToken>, bool> decisions_;
};

}  // namespace cil::profiler
