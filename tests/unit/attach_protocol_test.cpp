// The attach request's bytes, as dotnet/diagnostics' IPC protocol lays them out: the header
// (magic, total size, command set 0x03, command 0x01, reserved), the timeout, the CLSID in
// memory order, the library path as a counted UTF-16 string with its NUL, the client data.
#include <gtest/gtest.h>

#include "cli/jobs/diagnostics_ipc.h"

namespace {

uint32_t u32(const std::string& s, size_t at) {
  return static_cast<uint8_t>(s[at]) | static_cast<uint8_t>(s[at + 1]) << 8 | static_cast<uint8_t>(s[at + 2]) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[at + 3])) << 24;
}

TEST(AttachProtocol, RequestLayout) {
  cil::cli::AttachRequest request;
  request.timeout_ms = 0x01020304;
  request.clsid = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6411}";
  request.library = "/x.so";
  request.client_data = "A=b\n";
  auto message = cil::cli::attach_message(request);
  ASSERT_TRUE(message) << message.error().to_string();
  const std::string& m = *message;
  ASSERT_EQ(m.size(), 20u + 4 + 16 + 4 + 2 * 6 + 4 + 4);
  EXPECT_EQ(m.substr(0, 14), std::string("DOTNET_IPC_V1\0", 14));
  EXPECT_EQ(static_cast<uint8_t>(m[14]) | static_cast<uint8_t>(m[15]) << 8, static_cast<int>(m.size()));
  EXPECT_EQ(m[16], 0x03);
  EXPECT_EQ(m[17], 0x01);
  EXPECT_EQ(m[18], 0);
  EXPECT_EQ(m[19], 0);
  EXPECT_EQ(u32(m, 20), 0x01020304u);
  // Data1 little-endian, Data2 and Data3 likewise, Data4 as written.
  const unsigned char guid[16] = {0x16, 0xE7, 0xAD, 0xBB, 0xFC, 0xB1, 0xBB, 0x41, 0xAD, 0xF4, 0x12, 0x6D, 0x6D, 0x6D, 0x64, 0x11};
  EXPECT_EQ(m.substr(24, 16), std::string(reinterpret_cast<const char*>(guid), 16));
  EXPECT_EQ(u32(m, 40), 6u);  // "/x.so" and its NUL, in UTF-16 code units
  EXPECT_EQ(m.substr(44, 12), std::string("/\0x\0.\0s\0o\0\0\0", 12));
  EXPECT_EQ(u32(m, 56), 4u);
  EXPECT_EQ(m.substr(60), "A=b\n");
}

TEST(AttachProtocol, BadInputsAreErrors) {
  cil::cli::AttachRequest request;
  request.clsid = "not-a-guid";
  request.library = "/x.so";
  EXPECT_FALSE(cil::cli::attach_message(request));
  request.clsid = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6411}";
  request.client_data.assign(70000, 'x');  // over the protocol's 16-bit size
  EXPECT_FALSE(cil::cli::attach_message(request));
  request.client_data.clear();
  request.library = "/caf\xC3\xA9.so";  // not ASCII
  EXPECT_FALSE(cil::cli::attach_message(request));
}

TEST(AttachProtocol, SocketErrorsNameTheProcess) {
  auto none = cil::cli::diagnostics_socket(0);
  ASSERT_FALSE(none);
  auto gone = cil::cli::diagnostics_socket(0x7FFFFFF0);
  ASSERT_FALSE(gone);
  EXPECT_NE(gone.error().message.find("no process"), std::string::npos) << gone.error().message;
}

}  // namespace
