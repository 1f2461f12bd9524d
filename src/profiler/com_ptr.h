// An owning pointer to a COM interface: Release() once when it goes.
#pragma once

#include <utility>

namespace cil::profiler {

template <class T>
class ComPtr {
 public:
  ComPtr() = default;
  ComPtr(const ComPtr&) = delete;
  ComPtr& operator=(const ComPtr&) = delete;
  ComPtr(ComPtr&& other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
  ComPtr& operator=(ComPtr&& other) noexcept {
    if (this != &other) {
      reset();
      p_ = std::exchange(other.p_, nullptr);
    }
    return *this;
  }
  ~ComPtr() { reset(); }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  /// For out-parameters typed IUnknown** (QueryInterface, GetModuleMetaData): releases the
  /// current pointer first.
  void** out_void() {
    reset();
    return reinterpret_cast<void**>(&p_);
  }
  template <class U>
  U** out_as() {
    reset();
    return reinterpret_cast<U**>(&p_);
  }
  void reset() {
    if (p_) p_->Release();
    p_ = nullptr;
  }

 private:
  T* p_ = nullptr;
};

}  // namespace cil::profiler
