# Writes version.hpp with the current git hash, touching it only when it changes (so builds stay incremental).
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --short=12 HEAD OUTPUT_VARIABLE GEMMTUNE_GIT_HASH
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_failed)
if(git_failed OR GEMMTUNE_GIT_HASH STREQUAL "")
  set(GEMMTUNE_GIT_HASH "unknown")
else()
  execute_process(COMMAND git -C ${SOURCE_DIR} status --porcelain --untracked-files=no OUTPUT_VARIABLE dirty ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(GEMMTUNE_GIT_HASH "${GEMMTUNE_GIT_HASH}-dirty")
  endif()
endif()
configure_file(${SOURCE_DIR}/src/version.hpp.in ${OUTPUT}.new @ONLY)
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.new ${OUTPUT})
