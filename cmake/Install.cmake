# install() rules and the Debian package (cpack -G DEB). The executable and the profiler library
# go together into lib/cil-instrument/ (the tool finds libcilprofiler.so beside its real path),
# with bin/cil-instrument a symbolic link to it; the man page, the MSBuild targets and the README
# into share/.
include(GNUInstallDirs)
set(CIL_INSTALL_PRIVATE_DIR "${CMAKE_INSTALL_LIBDIR}/cil-instrument")
install(TARGETS cil-instrument RUNTIME DESTINATION "${CIL_INSTALL_PRIVATE_DIR}")
if(TARGET cilprofiler)
  install(TARGETS cilprofiler LIBRARY DESTINATION "${CIL_INSTALL_PRIVATE_DIR}")
endif()
install(CODE "
  file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
  file(CREATE_LINK \"../${CIL_INSTALL_PRIVATE_DIR}/cil-instrument\"
       \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/cil-instrument\" SYMBOLIC)
")
install(FILES "${PROJECT_SOURCE_DIR}/man/cil-instrument.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${PROJECT_SOURCE_DIR}/msbuild/CilInstrument.targets" DESTINATION "${CMAKE_INSTALL_DATADIR}/cil-instrument/msbuild")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

set(CPACK_PACKAGE_NAME "cil-instrument")
set(CPACK_PACKAGE_VENDOR "cil-instrument")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Instrument .NET assemblies: call counts, hooks, a CoreCLR profiler")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "cil-instrument maintainers <cil-instrument@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The executable is linked statically; the profiler library needs the C and C++ runtimes.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1")
set(CPACK_GENERATOR "DEB")
include(CPack)
